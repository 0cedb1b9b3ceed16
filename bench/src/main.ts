/**
 * `npm run bench`: measures this machine and prints a table, then writes it (JSON and
 * Markdown) to bench/results/. Not part of `npm test`.
 *
 *   node dist/bench/src/main.js [--only name[,name]] [--runs N] [--http-seconds S]
 *
 * A section is one entry in SECTIONS: a name, a description, optional targets, and a
 * run() that measures named figures once; the runner repeats it and reports medians
 * with their spread (min-max).
 */
import { loadavg } from 'node:os';
import type { BenchOptions, BenchSection, Measurement } from './support/bench-section';
import { machineInfo } from './support/machine-info';
import { type BenchReport, type SectionResult, writeResults } from './support/results-writer';
import { spread } from './support/stats';
import { rawSqliteSection } from './sections/raw-sqlite.section';
import { storeAppendSection } from './sections/store-append.section';
import { httpCyclesSection } from './sections/http-cycles.section';
import { readModelRebuildSection } from './sections/read-model-rebuild.section';
import { timeTravelSection } from './sections/time-travel.section';
import { scalingSection } from './sections/scaling.section';
import { nodeFoldSection } from './sections/node-fold.section';
import { bigLedgerSection } from './sections/big-ledger.section';
import { dhcpRenewalDaySection } from './sections/dhcp-renewal-day.section';
import { dhcpBootStormSection } from './sections/dhcp-boot-storm.section';

export const SECTIONS: readonly BenchSection[] = [
  rawSqliteSection,
  storeAppendSection,
  httpCyclesSection,
  readModelRebuildSection,
  timeTravelSection,
  bigLedgerSection,
  scalingSection,
  nodeFoldSection,
  dhcpRenewalDaySection,
  dhcpBootStormSection,
];

interface Args {
  only: string[] | null;
  runs: number;
  httpSeconds: number;
}

const parseArgs = (argv: readonly string[]): Args => {
  const args: Args = { only: null, runs: 3, httpSeconds: 10 };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    const value = argv[index + 1];
    const positive = (name: string) => {
      const number = Number(value);
      if (!Number.isInteger(number) || number < 1) throw new Error(`${name} needs a positive integer`);
      index++;
      return number;
    };
    if (flag === '--only' && value) {
      args.only = value.split(',').map((name) => name.trim());
      index++;
    } else if (flag === '--runs') args.runs = positive('--runs');
    else if (flag === '--http-seconds') args.httpSeconds = positive('--http-seconds');
    else throw new Error(`unknown argument ${flag}; usage: main.js [--only ${SECTIONS.map((s) => s.name).join(',')}] [--runs N] [--http-seconds S]`);
  }
  const unknown = (args.only ?? []).filter((name) => !SECTIONS.some((section) => section.name === name));
  if (unknown.length > 0) throw new Error(`unknown section(s) ${unknown.join(', ')}; sections: ${SECTIONS.map((s) => s.name).join(', ')}`);
  return args;
};

const runSection = async (section: BenchSection, options: BenchOptions): Promise<SectionResult> => {
  const runs: Measurement[][] = [];
  for (let run = 1; run <= options.runs; run++) {
    options.log(`${section.name}: run ${run}/${options.runs}`);
    runs.push(await section.run(options));
  }
  const figures = runs[0].map(({ key, label, unit }) => ({ key, label, unit, ...spread(runs.map((measured) => measured.find((m) => m.key === key)!.value)) }));
  const targets = (section.targets ?? []).map((target) => {
    const median = figures.find((figure) => figure.key === target.key)?.median ?? NaN;
    return { ...target, median, met: target.atMost !== undefined ? median <= target.atMost : median >= target.atLeast };
  });
  return { name: section.name, description: section.description, figures, targets };
};

const main = async (): Promise<void> => {
  const args = parseArgs(process.argv.slice(2));
  const options: BenchOptions = { runs: args.runs, httpSeconds: args.httpSeconds, log: (message) => process.stderr.write(`${message}\n`) };
  const startedAt = new Date().toISOString();
  const machine = machineInfo();
  const sections: SectionResult[] = [];
  for (const section of SECTIONS.filter((s) => !args.only || args.only.includes(s.name))) sections.push(await runSection(section, options));
  const report: BenchReport = {
    startedAt,
    finishedAt: new Date().toISOString(),
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    runs: args.runs,
    machine,
    loadAverageAtEnd: Math.round(loadavg()[0] * 100) / 100,
    sections,
  };
  const file = writeResults(report, args.only ? args.only.join('+') : null);
  process.stderr.write(`written ${file} (and .md)\n`);
  if (sections.some((section) => section.targets.some((target) => !target.met))) process.exitCode = 2;
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
