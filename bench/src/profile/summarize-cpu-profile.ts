/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and prints where the CPU went, as Markdown:
 * self time per layer (a package under node_modules, a folder of this project, node's own
 * internals, GC, idle) and the top functions by self time. Used by profile-http.ts.
 *
 *   node summarize-cpu-profile.js <file.cpuprofile> [topN]
 */
import { readFileSync } from 'node:fs';
import { layerOf } from './layer-of';
import { stageOf, type StackFrame } from './request-stages';

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

/**
 * `window` (microseconds on the monotonic clock V8 stamps samples with, the same as
 * process.hrtime here) keeps only the samples taken under load, not start-up or shutdown.
 */
export const summarize = (profile: CpuProfile, top = 30, window?: { fromUs: number; toUs: number }, requests?: number): string => {
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
  const stages = requests ? stageTable(profile, byId, window, requests, busy) : [];
  const lines = [
    `Profile: ${(total / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy (${((100 * busy) / total).toFixed(0)}%); shares below are of busy time.`,
    '',
    '| layer | self ms | share of busy |',
    '|---|---:|---:|',
  ];
  if (stages.length > 0) lines.splice(2, 0, ...stages, '');
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

/** CPU per request by stage (request-stages.ts): each sample placed by its whole stack. */
const stageTable = (
  profile: CpuProfile,
  byId: Map<number, ProfileNode>,
  window: { fromUs: number; toUs: number } | undefined,
  requests: number,
  busy: number,
): string[] => {
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const stages = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    at += profile.timeDeltas[index] ?? 0;
    if ((window && (at < window.fromUs || at > window.toUs)) || byId.get(id)!.callFrame.functionName === '(idle)') return;
    const stack: StackFrame[] = [];
    for (let node: number | undefined = id; node !== undefined; node = parentOf.get(node)) stack.push(byId.get(node)!.callFrame);
    const stage = stageOf(stack);
    stages.set(stage, (stages.get(stage) ?? 0) + ms);
  });
  const lines = [`| stage (by whole stack, then leaf layer) | CPU per request | share of busy |`, '|---|---:|---:|'];
  for (const [stage, ms] of [...stages].sort((a, b) => b[1] - a[1]))
    lines.push(`| ${stage} | ${((1000 * ms) / requests).toFixed(0)} µs | ${((100 * ms) / busy).toFixed(1)}% |`);
  lines.push(`| **all** | **${((1000 * busy) / requests).toFixed(0)} µs** | 100% |`);
  return lines;
};

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  process.stdout.write(`${summarize(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, Number(top ?? 30))}\n`);
}
