import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MachineInfo } from './machine-info';
import type { Spread } from './stats';

export interface FigureResult extends Spread {
  key: string;
  label: string;
  unit: string;
}

export interface TargetResult {
  key: string;
  atLeast?: number;
  atMost?: number;
  median: number;
  met: boolean;
  why: string;
}

export interface SectionResult {
  name: string;
  description: string;
  figures: FigureResult[];
  targets: TargetResult[];
}

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  command: string;
  runs: number;
  machine: MachineInfo;
  loadAverageAtEnd: number;
  sections: SectionResult[];
}

const RESULTS_DIR = resolve(__dirname, '../../../../bench/results');

const format = (value: number): string => {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
};

/** The whole report as Markdown: machine, one table of figures, the targets. */
export const renderMarkdown = (report: BenchReport): string => {
  const m = report.machine;
  const lines = [
    `# Benchmark ${report.startedAt}`,
    '',
    `\`${report.command}\` - ${report.runs} run(s) per section; each figure is the median, with the min-max over the runs.`,
    '',
    `Machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}; Node ${m.node}; SQLite ${m.sqlite} (better-sqlite3 ${m.betterSqlite3}); load average ${m.loadAverageAtStart} at start, ${report.loadAverageAtEnd} at end; fresh memory ${m.memoryTouch.firstMsPerMb} ms a MiB to touch first, ${m.memoryTouch.againMsPerMb} again (bench/src/support/memory-touch.ts).`,
    '',
    '| section | figure | median | min - max | unit |',
    '|---|---|---:|---:|---|',
    ...report.sections.flatMap((section) =>
      section.figures.map(
        (figure) => `| ${section.name} | ${figure.label} | ${format(figure.median)} | ${format(figure.min)} - ${format(figure.max)} | ${figure.unit} |`,
      ),
    ),
  ];
  const targets = report.sections.flatMap((section) => section.targets);
  if (targets.length > 0) {
    lines.push('', '| target | median | required | met |', '|---|---:|---:|---|');
    for (const target of targets)
      lines.push(
        `| ${target.why} (\`${target.key}\`) | ${format(target.median)} | ${target.atMost !== undefined ? `<= ${format(target.atMost)}` : `>= ${format(target.atLeast!)}`} | ${target.met ? 'yes' : '**NO**'} |`,
      );
  }
  lines.push('', ...report.sections.map((section) => `- **${section.name}**: ${section.description}`), '');
  return lines.join('\n');
};

/** Prints the table and writes bench/results/<date>[-<suffix>].json and .md; returns the JSON path. */
export const writeResults = (report: BenchReport, suffix: string | null): string => {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const base = join(RESULTS_DIR, `${report.startedAt.slice(0, 10)}${suffix ? `-${suffix}` : ''}`);
  const markdown = renderMarkdown(report);
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.md`, markdown);
  process.stdout.write(`\n${markdown}\n`);
  return `${base}.json`;
};
