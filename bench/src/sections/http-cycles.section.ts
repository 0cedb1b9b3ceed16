import { readFileSync } from 'node:fs';
import { LedgerProcess } from '@ledger/testing';
import { BaselineProcess } from '../baseline/baseline-process';
import type { BenchOptions, BenchSection, Measurement } from '../support/bench-section';
import { enlistNodes } from '../support/command-cycles';
import { COMMANDS_PER_CYCLE, load, NODE_PREFIX, summarise, type Target } from '../support/cycle-loads';
import { JsonClient } from '../support/http-client';
import { JIT_WARM_UP_SECONDS } from '../support/jit-warm-up';
import { untilIdle } from '../support/process-idle';
import { AppendLoad } from './store-append.section';

const CONCURRENCY = [1, 16, 64] as const;
const STORE_SLICE_MS = 1_000;
/**
 * Both servers start fresh in every run: each first runs one client for JIT_WARM_UP_SECONDS
 * (jit-warm-up.ts: until V8 has compiled its hot paths), then, at each concurrency, the
 * same load as the measured one for WARM_UP_SECONDS, unmeasured. A server runs for days;
 * the figures are of one that has warmed up, both alike.
 */
const WARM_UP_SECONDS = 2;
/** Measured slices per server and concurrency, taken in turn (ABBA, twice). */
const SLICES = 4;
const SLICE_ORDER = ['baseline', 'ledger', 'ledger', 'baseline', 'baseline', 'ledger', 'ledger', 'baseline'] as const;

/** Peak resident set size of a process so far (VmHWM), in MiB. */
const peakRssMiB = (pid: number): number => {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
};

const storeCounters = async (ledger: LedgerProcess): Promise<{ appends: number; transactions: number }> => {
  const { body } = await ledger.get<string>('/metrics');
  const read = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(body)?.[1] ?? NaN);
  return { appends: read('ledger_store_appends_total'), transactions: read('ledger_store_transactions_total') };
};

const enlistBenchNodes = async (target: Target): Promise<void> => {
  const setup = new JsonClient(target.port, target.apiKey, 8);
  try {
    await enlistNodes(setup, Math.max(...CONCURRENCY), NODE_PREFIX);
  } finally {
    setup.close();
  }
};

/** The store alone at 64 clients (SqliteEventStore in this process, as the store-append section runs it), for the ledger's ratio to it. */
const storeAppendRate = async (): Promise<number> => {
  const load = await AppendLoad.open(64);
  try {
    const slices = [await load.measure(STORE_SLICE_MS), await load.measure(STORE_SLICE_MS)];
    return slices.reduce((sum, slice) => sum + slice.events, 0) / slices.reduce((sum, slice) => sum + slice.seconds, 0);
  } finally {
    await load.close();
  }
};

export const httpCyclesSection: BenchSection = {
  name: 'http-cycles',
  description:
    'full command cycles over HTTP on loopback (acquire, deploying, deployed, release; each client on its own node; latency per request; the load generator runs on the same machine) ' +
    'against the real server process (default settings: synchronous=FULL, LOG_LEVEL=info, operator key; rate limit raised) and, in the same run with the same load generator, ' +
    'against the baseline: a bare node:http server appending the same events with the same calls to the same store (bench/src/baseline/bare-http-server.ts); ' +
    `at each concurrency each server's load is cut in ${SLICES} slices taken in turn (baseline, ledger, ledger, baseline, twice: the host's drift hits both alike), each server after ${JIT_WARM_UP_SECONDS} s of one client once (V8 compiles the hot paths) and the same load for ${WARM_UP_SECONDS} s unmeasured (warm-up), and no load starts before both servers are idle; then the store alone at 64 clients (2 x 1 s) for the ledger-to-store ratio. A command is one request; a cycle is 4`,
  targets: [
    { key: 'http.64.vs-baseline', atLeast: 0.5, why: "at 64 clients the ledger completes at least half the baseline's command rate" },
    { key: 'http.1.p50-vs-baseline', atMost: 1.5, why: "at 1 client the ledger's p50 latency is at most 1.5 times the baseline's" },
    {
      key: 'http.64.vs-store',
      atLeast: 0.08,
      why: "at 64 clients the ledger's command rate is at least 0.08 of the store's append rate (3x the 0.027 of issue 16)",
    },
  ],
  async run(options: BenchOptions): Promise<Measurement[]> {
    const ledger = await LedgerProcess.start({ env: { LEDGER_RATE_LIMIT_PER_SECOND: '1000000' } });
    const baseline = await BaselineProcess.start();
    const targets: Record<'ledger' | 'baseline', Target> = {
      ledger: { name: 'ledger', port: ledger.port, apiKey: ledger.apiKey },
      baseline: { name: 'baseline', port: baseline.port, apiKey: ledger.apiKey },
    };
    const measurements: Measurement[] = [];
    const figures: Record<string, number> = {};
    try {
      await enlistBenchNodes(targets.baseline);
      await enlistBenchNodes(targets.ledger);
      const label = Date.now().toString(36);
      const settle = async () => {
        const { idle, waitedMs } = await untilIdle([ledger.pid, baseline.pid]);
        if (!idle) options.log(`    (the servers were still busy after ${waitedMs} ms; measuring anyway)`);
      };
      for (const target of [targets.baseline, targets.ledger]) {
        await settle();
        await load(target, 1, JIT_WARM_UP_SECONDS, `bench-${label}jit`);
      }
      for (const clients of CONCURRENCY) {
        const prefix = (part: string) => `bench-${label}${part}-${clients}`;
        // Each server's load is cut in SLICES slices taken in turn, B L L B B L L B, so that
        // the host's drift hits both servers alike: on this machine a server's p50 moved by a
        // factor of two within a minute, and one slow spell over one server's whole window
        // decided a run. Each server warms up just before its first slice, and no slice
        // starts while the other server is still working off its own (the ledger's read
        // models catch up after a load).
        for (const target of [targets.baseline, targets.ledger]) {
          await settle();
          await load(target, clients, WARM_UP_SECONDS, prefix('w'));
        }
        const slices: Record<'ledger' | 'baseline', Awaited<ReturnType<typeof load>>[]> = { ledger: [], baseline: [] };
        let appends = 0;
        let transactions = 0;
        for (const [index, name] of SLICE_ORDER.entries()) {
          await settle();
          const before = name === 'ledger' ? await storeCounters(ledger) : null;
          slices[name].push(await load(targets[name], clients, options.httpSeconds / SLICES, prefix(`s${index}`)));
          if (before) {
            const after = await storeCounters(ledger);
            appends += after.appends - before.appends;
            transactions += after.transactions - before.transactions;
          }
        }
        const result = summarise(slices.ledger);
        const base = summarise(slices.baseline);
        options.log(
          `    ${clients} clients: ledger ${result.cyclesPerSecond.toFixed(1)} cycles/s p50 ${result.p50.toFixed(2)} ms p99 ${result.p99.toFixed(2)} ms; baseline ${base.cyclesPerSecond.toFixed(1)} cycles/s p50 ${base.p50.toFixed(2)} ms p99 ${base.p99.toFixed(2)} ms`,
        );
        figures[`${clients}.commands`] = result.cyclesPerSecond * COMMANDS_PER_CYCLE;
        measurements.push(
          { key: `http.${clients}.cycles`, label: `${clients} client(s): ledger cycles`, value: result.cyclesPerSecond, unit: 'cycles/s' },
          {
            key: `http.${clients}.commands`,
            label: `${clients} client(s): ledger commands`,
            value: result.cyclesPerSecond * COMMANDS_PER_CYCLE,
            unit: 'commands/s',
          },
          { key: `http.${clients}.p50`, label: `${clients} client(s): ledger request latency p50`, value: result.p50, unit: 'ms' },
          { key: `http.${clients}.p99`, label: `${clients} client(s): ledger request latency p99`, value: result.p99, unit: 'ms' },
          {
            key: `http.${clients}.batch`,
            label: `${clients} client(s): ledger appends per transaction (group commit)`,
            value: appends / transactions,
            unit: 'appends',
          },
          {
            key: `baseline.${clients}.commands`,
            label: `${clients} client(s): baseline commands`,
            value: base.cyclesPerSecond * COMMANDS_PER_CYCLE,
            unit: 'commands/s',
          },
          { key: `baseline.${clients}.p50`, label: `${clients} client(s): baseline request latency p50`, value: base.p50, unit: 'ms' },
          { key: `baseline.${clients}.p99`, label: `${clients} client(s): baseline request latency p99`, value: base.p99, unit: 'ms' },
          {
            key: `http.${clients}.vs-baseline`,
            label: `${clients} client(s): ledger / baseline command rate`,
            value: result.cyclesPerSecond / base.cyclesPerSecond,
            unit: 'ratio',
          },
          { key: `http.${clients}.p50-vs-baseline`, label: `${clients} client(s): ledger / baseline p50 latency`, value: result.p50 / base.p50, unit: 'ratio' },
        );
      }
      measurements.push({ key: 'http.peak-rss', label: 'ledger peak RSS over the three loads', value: peakRssMiB(ledger.pid), unit: 'MiB' });
      measurements.push({ key: 'baseline.peak-rss', label: 'baseline peak RSS over the three loads', value: peakRssMiB(baseline.pid), unit: 'MiB' });
    } finally {
      await ledger.stop();
      ledger.removeData();
      await baseline.stop();
    }
    const storeRate = await storeAppendRate();
    measurements.push(
      { key: 'store.64.appends', label: 'the store alone, 64 clients (same run)', value: storeRate, unit: 'events/s' },
      { key: 'http.64.vs-store', label: '64 clients: ledger commands / store appends', value: figures['64.commands'] / storeRate, unit: 'ratio' },
    );
    return measurements;
  },
};
