import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerProcess } from '@ledger/testing';
import type { BenchSection, Measurement } from '../support/bench-section';
import { load, summarise } from '../support/cycle-loads';
import { benchEvents, GENERATED_SNAPSHOT_EVERY, generatedLedger } from '../support/generated-log';
import { asTarget, enlist, longestLoopStallMs, settled } from '../support/ledger-probes';
import { untilIdle } from '../support/process-idle';

const WARM_UP_SECONDS = 2;
/** How long the big ledger may take to work off its start: its lease cascade folds the whole log once. */
const SETTLE_MAX_MS = 600_000;
const ENV = { LEDGER_RATE_LIMIT_PER_SECOND: '1000000', LEDGER_SNAPSHOT_EVERY: String(GENERATED_SNAPSHOT_EVERY) };

/**
 * A ledger's history must not slow its commands: every read model a command waits on, and
 * every checkpoint written on the request path's thread, is measured here against the same
 * ledger without the history, in the same run.
 */
export const bigLedgerSection: BenchSection = {
  name: 'big-ledger',
  description:
    `the command cycle at 1 client (acquire, deploying, deployed, release) against the real ledger on a copy of the generated log of ${benchEvents().toLocaleString('en-US')} events, its read models built, ` +
    `and, in the same run, against a fresh ledger with the same settings (snapshots every ${GENERATED_SNAPSHOT_EVERY.toLocaleString('en-US')}; rate limit raised); ` +
    "the big ledger first works off its start (its lease cascade folds the whole log once: the time until every follower of the log is at the head and both processes are idle is reported), then the fresh one's load is cut in two halves around the big one's, each after 2 s unmeasured; latency as the client sees it; the big ledger's longest event-loop stall during its load (prom-client's nodejs_eventloop_lag_max_seconds).",
  targets: [
    { key: 'big.p50-vs-fresh', atMost: 1.5, why: "at 1 client a ledger with the generated history answers within 1.5 times a fresh ledger's p50" },
    {
      key: 'big.rate-vs-fresh',
      atLeast: 0.8,
      why: "at 1 client a ledger with the generated history completes at least 0.8 of a fresh ledger's commands (stalls count)",
    },
  ],
  async run(options): Promise<Measurement[]> {
    const { dataDir } = await generatedLedger(benchEvents(), options.log);
    const copy = mkdtempSync(join(tmpdir(), 'ledger-bench-big-'));
    try {
      cpSync(dataDir, copy, { recursive: true });
      const started = performance.now();
      const big = await LedgerProcess.start({ dataDir: copy, env: ENV });
      const fresh = await LedgerProcess.start({ env: ENV });
      try {
        const targets = { big: asTarget('big ledger', big), fresh: asTarget('fresh ledger', fresh) };
        await enlist(targets.big);
        await enlist(targets.fresh);
        const settle = () => untilIdle([big.pid, fresh.pid]);
        if (!(await settled(big, [big.pid, fresh.pid], SETTLE_MAX_MS)))
          options.log(`    (the big ledger was still busy ${SETTLE_MAX_MS / 1000} s after its start; measuring anyway)`);
        const settledSeconds = (performance.now() - started) / 1000;
        const label = Date.now().toString(36);
        await load(targets.fresh, 1, WARM_UP_SECONDS, `big-${label}-w`);
        const freshFirst = await load(targets.fresh, 1, options.httpSeconds / 2, `big-${label}-a`);
        await settle();
        await load(targets.big, 1, WARM_UP_SECONDS, `big-${label}-w`);
        await longestLoopStallMs(big);
        const measured = summarise([await load(targets.big, 1, options.httpSeconds, `big-${label}-m`)]);
        const loopStall = await longestLoopStallMs(big);
        await settle();
        const baseline = summarise([freshFirst, await load(targets.fresh, 1, options.httpSeconds / 2, `big-${label}-b`)]);
        options.log(
          `    big ledger p50 ${measured.p50.toFixed(2)} ms p99 ${measured.p99.toFixed(2)} ms max ${measured.max.toFixed(0)} ms, event loop stalled ${loopStall.toFixed(0)} ms at most; fresh p50 ${baseline.p50.toFixed(2)} ms p99 ${baseline.p99.toFixed(2)} ms max ${baseline.max.toFixed(0)} ms; settled after ${settledSeconds.toFixed(1)} s`,
        );
        return [
          { key: 'big.settled', label: 'the big ledger: start until its followers are at the head and both processes idle', value: settledSeconds, unit: 's' },
          { key: 'big.p50', label: 'big ledger: request latency p50', value: measured.p50, unit: 'ms' },
          { key: 'big.p99', label: 'big ledger: request latency p99', value: measured.p99, unit: 'ms' },
          { key: 'big.max', label: 'big ledger: slowest request', value: measured.max, unit: 'ms' },
          { key: 'big.loop-stall', label: "big ledger: its event loop's longest stall during the load", value: loopStall, unit: 'ms' },
          { key: 'fresh.p50', label: 'fresh ledger: request latency p50', value: baseline.p50, unit: 'ms' },
          { key: 'fresh.p99', label: 'fresh ledger: request latency p99', value: baseline.p99, unit: 'ms' },
          { key: 'fresh.max', label: 'fresh ledger: slowest request', value: baseline.max, unit: 'ms' },
          { key: 'big.p50-vs-fresh', label: 'big / fresh p50 latency', value: measured.p50 / baseline.p50, unit: 'ratio' },
          { key: 'big.p99-vs-fresh', label: 'big / fresh p99 latency', value: measured.p99 / baseline.p99, unit: 'ratio' },
          { key: 'big.rate-vs-fresh', label: 'big / fresh command rate', value: measured.cyclesPerSecond / baseline.cyclesPerSecond, unit: 'ratio' },
        ];
      } finally {
        await big.stop();
        await fresh.stop();
        fresh.removeData();
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  },
};
