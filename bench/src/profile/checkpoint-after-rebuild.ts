/**
 * The server's own checkpoint after a `ledger-cli rebuild` promoted one beside it: the real
 * ledger on a copy of the bench's generated ledger (LEDGER_BENCH_EVENTS, one million by
 * default), the built CLI's rebuild beside it, then a command a second until the view's
 * checkpoint is the server's again, whole, with no row set left over (its full save written
 * a step at a time: StateFold's fullSaveStep). Each second it prints the event loop's
 * longest stall (nodejs_eventloop_lag_max_seconds, reset by each scrape) and the row sets of
 * checkpoint_entities. The server's first timed checkpoint comes late: the one its start
 * made of the rebuild's whole state took d, and CHECKPOINT_SHARE puts the next 50·d after.
 *
 *   node dist/bench/src/profile/checkpoint-after-rebuild.js [maxSeconds=400]
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ledgerProjection } from '@ledger/projections';
import { LedgerProcess, runCli } from '@ledger/testing';
import { benchEvents, GENERATED_SNAPSHOT_EVERY, generatedLedger } from '../support/generated-log';
import { longestLoopStallMs } from '../support/ledger-probes';

const ENV = { LEDGER_SNAPSHOT_EVERY: String(GENERATED_SNAPSHOT_EVERY), LEDGER_CHECKPOINT_INTERVAL_MS: '1000' };

interface Stored {
  /** The checkpoints rows of the view, name@position. */
  rows: string[];
  live: string | null;
  garbage: string[];
  /** Rows of each row set of the view. */
  sets: Record<string, number>;
}

const storedCheckpoint = (file: string): Stored => {
  const db = new Database(file, { readonly: true });
  try {
    const name = ledgerProjection.name;
    const rows = db.prepare('SELECT name, position FROM checkpoints WHERE name LIKE ?').all(`${name}%`) as { name: string; position: number }[];
    const state = (row: string) => db.prepare('SELECT state FROM checkpoints WHERE name = ?').pluck().get(row) as string | undefined;
    const meta = state(`${name}/entities`);
    const garbage = state(`${name}/garbage`);
    const sets = db.prepare('SELECT name, count(*) AS n FROM checkpoint_entities WHERE name LIKE ? GROUP BY name').all(`${name}%`) as {
      name: string;
      n: number;
    }[];
    return {
      rows: rows.map((row) => `${row.name}@${row.position}`),
      live: meta ? ((JSON.parse(meta) as { rows?: string }).rows ?? name) : null,
      garbage: garbage ? (JSON.parse(garbage) as string[]) : [],
      sets: Object.fromEntries(sets.map((set) => [set.name, set.n])),
    };
  } finally {
    db.close();
  }
};

const main = async (): Promise<void> => {
  const maxSeconds = Number(process.argv[2] ?? 400);
  const log = (line: string) => console.error(line);
  const { dataDir } = await generatedLedger(benchEvents(), log);
  const copy = mkdtempSync(join(tmpdir(), 'ledger-checkpoint-after-rebuild-'));
  try {
    cpSync(dataDir, copy, { recursive: true });
    const file = join(copy, 'read-models.sqlite');
    const ledger = await LedgerProcess.start({ dataDir: copy, env: ENV });
    try {
      const began = performance.now();
      const rebuild = await runCli(['rebuild', '--data-dir', copy]);
      if (rebuild.status !== 0) throw new Error(`ledger-cli rebuild failed (exit ${rebuild.status}): ${rebuild.stderr || rebuild.stdout}`);
      console.log(`rebuild done in ${((performance.now() - began) / 1000).toFixed(1)} s: ${JSON.stringify(storedCheckpoint(file))}`);
      await longestLoopStallMs(ledger);
      const stalls: { at: number; ms: number; stepping: boolean }[] = [];
      for (let i = 0; ; i++) {
        const at = (performance.now() - began) / 1000;
        if (at > maxSeconds) throw new Error(`the view's checkpoint was not the server's again within ${maxSeconds} s`);
        const answer = await ledger.post('/v1/nodes', { nodeId: `after-rebuild-${i}`, hostname: 'after-rebuild.maas', cpuCount: 8, memoryMb: 16384 });
        if (answer.status !== 201) throw new Error(`enlist: ${answer.status} ${JSON.stringify(answer.body)}`);
        const ms = await longestLoopStallMs(ledger);
        const stored = storedCheckpoint(file);
        const stepping = Object.keys(stored.sets).length > 1 || stored.garbage.length > 0;
        stalls.push({ at, ms, stepping });
        if (i % 10 === 0 || ms > 100) console.log(`${at.toFixed(1)} s: longest stall ${ms.toFixed(0)} ms; ${JSON.stringify(stored)}`);
        if (stored.live !== null && stored.garbage.length === 0 && Object.keys(stored.sets).length === 1) {
          console.log(`the server's own checkpoint, whole, at ${at.toFixed(1)} s: ${JSON.stringify(stored)}`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      const longest = (part: typeof stalls) => (part.length === 0 ? 'none' : `${Math.max(...part.map((stall) => stall.ms)).toFixed(0)} ms`);
      console.log(
        `longest stall while the row sets were written or deleted: ${longest(stalls.filter((s) => s.stepping))}; otherwise: ${longest(stalls.filter((s) => !s.stepping))}`,
      );
    } finally {
      await ledger.stop();
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
