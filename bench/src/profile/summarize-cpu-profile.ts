/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and prints where the CPU went, as Markdown:
 * self time per layer (a package under node_modules, a folder of this project, node's own
 * internals, GC, idle) and the top functions by self time. Used by profile-http.ts.
 *
 *   node summarize-cpu-profile.js <file.cpuprofile> [topN]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** The layer a frame belongs to: the npm package, or the project folder, or a V8/node bucket. */
export const layerOf = (url: string, functionName: string): string => {
  if (functionName === '(garbage collector)') return '(garbage collector)';
  if (functionName === '(idle)') return '(idle)';
  if (functionName === '(program)') return '(program: native, not attributed)';
  if (!url) return `(native: ${functionName || 'anonymous'})`;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1];
  if (url.startsWith('node:internal/')) return `node:internal/${url.slice(14).split('/')[0].replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return url;
  const projectMatch = /dist\/((?:apps|libs)\/[^/]+\/src\/[^/]+|bench\/src|test)/.exec(url);
  if (projectMatch) return projectMatch[1];
  return url;
};

/**
 * `window` (microseconds on the monotonic clock V8 stamps samples with, the same as
 * process.hrtime here) keeps only the samples taken under load, not start-up or shutdown.
 */
export const summarize = (profile: CpuProfile, top = 30, window?: { fromUs: number; toUs: number }): string => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (window && (at < window.fromUs || at > window.toUs)) return;
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  const total = [...selfMs.values()].reduce((a, b) => a + b, 0);
  const idle = [...selfMs.entries()].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((a, [, ms]) => a + ms, 0);
  const busy = total - idle;
  const layers = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const layer = layerOf(url, functionName);
    layers.set(layer, (layers.get(layer) ?? 0) + ms);
    const name = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
  }
  const pct = (ms: number) => `${((100 * ms) / busy).toFixed(1)}%`;
  const lines = [
    `Profile: ${(total / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy (${((100 * busy) / total).toFixed(0)}%); shares below are of busy time.`,
    '',
    '| layer | self ms | share of busy |',
    '|---|---:|---:|',
  ];
  for (const [layer, ms] of [...layers].filter(([layer]) => layer !== '(idle)').sort((a, b) => b[1] - a[1]))
    lines.push(`| ${layer} | ${ms.toFixed(0)} | ${pct(ms)} |`);
  lines.push('', `| top ${top} functions by self time | self ms | share of busy |`, '|---|---:|---:|');
  for (const [name, ms] of [...functions]
    .filter(([name]) => !name.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    lines.push(`| \`${name.trim()}\` | ${ms.toFixed(0)} | ${pct(ms)} |`);
  return lines.join('\n');
};

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  process.stdout.write(`${summarize(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, Number(top ?? 30))}\n`);
}
