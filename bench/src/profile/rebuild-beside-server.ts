/**
 * What `ledger-cli rebuild` beside a running ledger costs the requests that ledger serves:
 * the real ledger on a copy of the bench's generated ledger (LEDGER_BENCH_EVENTS, one million
 * by default, its read models built) under the 1-client command cycle. After 15 s of load,
 * the built CLI rebuilds every read model in its own process beside it; the load goes on
 * until 30 s after the rebuild ended. Each second it takes the slowest request the client
 * saw and the event loop's longest stall (prom-client's nodejs_eventloop_lag_max_seconds,
 * read and reset by each scrape), and prints them with the rebuild's span.
 *
 *   node dist/bench/src/profile/rebuild-beside-server.js [out.md]
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerProcess, runCli } from '@ledger/testing';
import { load } from '../support/cycle-loads';
import { benchEvents, GENERATED_SNAPSHOT_EVERY, generatedLedger } from '../support/generated-log';
import { asTarget, enlist, longestLoopStallMs, settled } from '../support/ledger-probes';
import { percentile, sorted } from '../support/stats';

const BEFORE_SECONDS = 15;
const AFTER_SECONDS = 30;
const ENV = { LEDGER_RATE_LIMIT_PER_SECOND: '1000000', LEDGER_RATE_LIMIT_BURST: '1000000', LEDGER_SNAPSHOT_EVERY: String(GENERATED_SNAPSHOT_EVERY) };

interface Second {
  at: number;
  during: boolean;
  slowestMs: number;
  stallMs: number;
  latenciesMs: number[];
}

const main = async (): Promise<void> => {
  const out = process.argv[2];
  const log = (line: string) => console.error(line);
  const { dataDir } = await generatedLedger(benchEvents(), log);
  const copy = mkdtempSync(join(tmpdir(), 'ledger-beside-'));
  const loadAtStart = loadavg()[0];
  try {
    cpSync(dataDir, copy, { recursive: true });
    const ledger = await LedgerProcess.start({ dataDir: copy, env: ENV });
    try {
      const target = asTarget('ledger', ledger);
      await enlist(target);
      if (!(await settled(ledger, [ledger.pid], 600_000))) log('(the ledger was still busy 600 s after its start; measuring anyway)');
      await load(target, 1, 2, 'beside-warm-up');
      await longestLoopStallMs(ledger);
      const started = performance.now();
      const seconds: Second[] = [];
      let rebuild: Promise<{ status: number; stdout: string; stderr: string }> | null = null;
      let rebuildSpan: { from: number; to: number | null } | null = null;
      for (let i = 0; ; i++) {
        const at = (performance.now() - started) / 1000;
        if (rebuild === null && at >= BEFORE_SECONDS) {
          rebuildSpan = { from: at, to: null };
          const span = rebuildSpan;
          rebuild = runCli(['rebuild', '--data-dir', copy]).then((result) => {
            span.to = (performance.now() - started) / 1000;
            return result;
          });
        }
        if (rebuildSpan?.to != null && at >= rebuildSpan.to + AFTER_SECONDS) break;
        const slice = await load(target, 1, 1, `beside-${started}-${i}`);
        const stallMs = await longestLoopStallMs(ledger);
        const during = rebuildSpan !== null && (rebuildSpan.to === null || at <= rebuildSpan.to);
        seconds.push({ at, during, slowestMs: Math.max(...slice.latenciesMs), stallMs, latenciesMs: slice.latenciesMs });
      }
      const result = await rebuild!;
      if (result.status !== 0) throw new Error(`ledger-cli rebuild failed (exit ${result.status}): ${result.stderr || result.stdout}`);
      const reported = /^rebuilt .*$/m.exec(result.stdout)?.[0] ?? '(no report)';
      const summary = (part: Second[]) => {
        const latencies = sorted(part.flatMap((second) => second.latenciesMs));
        return `${part.length} s, ${latencies.length} requests: p50 ${percentile(latencies, 50, true).toFixed(2)} ms, p99 ${percentile(latencies, 99, true).toFixed(1)} ms, slowest ${Math.max(...latencies).toFixed(0)} ms; the event loop's longest stall ${Math.max(...part.map((s) => s.stallMs)).toFixed(0)} ms`;
      };
      const lines = [
        `# A rebuild beside the running ledger (${benchEvents().toLocaleString('en-US')} events)`,
        '',
        `\`node dist/bench/src/profile/rebuild-beside-server.js\`: load average ${loadAtStart.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end. The rebuild ran from ${rebuildSpan!.from.toFixed(1)} s to ${rebuildSpan!.to!.toFixed(1)} s: ${reported}`,
        '',
        `- while it ran: ${summary(seconds.filter((s) => s.during))}`,
        `- before and after it: ${summary(seconds.filter((s) => !s.during))}`,
        '',
        "| at (s) | rebuild | slowest request (ms) | event loop's longest stall (ms) |",
        '|---:|---|---:|---:|',
        ...seconds.map((s) => `| ${s.at.toFixed(1)} | ${s.during ? 'running' : ''} | ${s.slowestMs.toFixed(0)} | ${s.stallMs.toFixed(0)} |`),
      ];
      console.log(lines.slice(0, 7).join('\n'));
      if (out) writeFileSync(out, `${lines.join('\n')}\n`);
    } finally {
      await ledger.stop();
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
