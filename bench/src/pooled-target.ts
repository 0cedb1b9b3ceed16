/**
 * One bench target judged over many runs: each results file's figure for `key` (every
 * measurement of it, not only the run's median), the target's line as the run printed it,
 * and, pooled over the files, how many measurements met it, their median, and the one-sided
 * sign test of "the figure's median is on the target's side of the line" (sign-test.ts).
 * For a target whose margin is smaller than the host's swing between hours, where one
 * run's median of three lands on either side.
 *
 *   node dist/bench/src/pooled-target.js <key> <results.json>...
 *   node dist/bench/src/pooled-target.js all.ratio bench/results/*.json
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { BenchReport, FigureResult, TargetResult } from './support/results-writer';
import { median } from './support/stats';
import { meetsLine, signTest, type Line } from './support/sign-test';

interface Found {
  file: string;
  figure: FigureResult;
  line: Line;
}

const lineOf = (target: TargetResult): Line | null =>
  target.atLeast !== undefined ? { atLeast: target.atLeast } : target.atMost !== undefined ? { atMost: target.atMost } : null;

const find = (file: string, key: string): Found | null => {
  const report = JSON.parse(readFileSync(file, 'utf8')) as BenchReport;
  for (const section of report.sections) {
    const figure = section.figures.find((candidate) => candidate.key === key);
    const target = section.targets.find((candidate) => candidate.key === key);
    const line = target ? lineOf(target) : null;
    if (figure && line) return { file, figure, line };
  }
  return null;
};

const lineText = (line: Line): string => ('atLeast' in line ? `>= ${line.atLeast}` : `<= ${line.atMost}`);
const round = (value: number): string => value.toFixed(3);

const main = (): void => {
  const [key, ...files] = process.argv.slice(2);
  if (!key || files.length === 0) {
    process.stderr.write('usage: pooled-target.js <figure key, e.g. all.ratio> <bench results .json>...\n');
    process.exit(2);
  }
  const found: Found[] = [];
  for (const file of files) {
    const one = find(file, key);
    if (one) found.push(one);
    else process.stderr.write(`${file}: no target "${key}" in it, left out\n`);
  }
  if (found.length === 0) {
    process.stderr.write(`no file has a target "${key}"\n`);
    process.exit(2);
  }
  const line = found[0].line;
  const other = found.find((one) => lineText(one.line) !== lineText(line));
  if (other) {
    process.stderr.write(`${other.file} draws the line of "${key}" at ${lineText(other.line)}, ${found[0].file} at ${lineText(line)}: not pooled\n`);
    process.exit(2);
  }
  const rows = found.map(({ file, figure }) => {
    const met = meetsLine(figure.median, line) ? 'yes' : '**no**';
    return `| ${basename(file)} | ${figure.runs.map(round).join(', ')} | ${round(figure.median)} | ${met} |`;
  });
  const values = found.flatMap(({ figure }) => figure.runs);
  const medians = found.map(({ figure }) => figure.median);
  const each = signTest(values, line);
  const runs = signTest(medians, line);
  process.stdout.write(
    [
      `# \`${key}\` ${lineText(line)}, pooled over ${found.length} runs`,
      '',
      '| results | measurements | run median | met |',
      '|---|---|---:|---|',
      ...rows,
      '',
      `- measurements: ${each.meeting} of ${each.measurements} meet the line; their median ${round(median(values))};` +
        ` one-sided sign test p = ${each.p.toPrecision(2)}`,
      `- runs (each a median): ${runs.meeting} of ${runs.measurements} meet it; their median ${round(median(medians))};` +
        ` one-sided sign test p = ${runs.p.toPrecision(2)}`,
      '',
    ].join('\n'),
  );
};

main();
