/**
 * What copying the read-model file's WAL back costs the thread whose commit does it: a
 * read-model file written as the ledger's event loop writes it (transactions of 1,000 rows
 * of 600 bytes, a checkpoint's step or a snapshot), timed commit by commit, first with
 * SQLite's own checkpoint (the commit that finds the WAL over 1,000 pages copies it back and
 * syncs), then with the copies made by a WalCheckpointer thread beside it, alternated over
 * rounds. Each round on a fresh file.
 *
 *   node dist/bench/src/profile/wal-checkpoint-stalls.js [rounds=3] [transactions=300]
 */
import { loadavg } from 'node:os';
import type Database from 'better-sqlite3';
import { openReadModelDatabase, WalCheckpointer } from '@ledger/projections';
import { percentile, sorted } from '../support/stats';
import { tempDatabase } from '../support/temp-file';

const ROWS = 1_000;
const BODY = JSON.stringify({ body: 'x'.repeat(600) });

/** Each commit's milliseconds, over `transactions` transactions of ROWS rows. */
const commits = (db: Database.Database, transactions: number): number[] => {
  db.exec('CREATE TABLE entities (key TEXT PRIMARY KEY, body TEXT NOT NULL) WITHOUT ROWID');
  const insert = db.prepare('INSERT INTO entities VALUES (?, ?)');
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const took: number[] = [];
  for (let t = 0; t < transactions; t++) {
    begin.run();
    for (let i = 0; i < ROWS; i++) insert.run(`entity-${String(t * ROWS + i).padStart(9, '0')}`, BODY);
    const began = performance.now();
    commit.run();
    took.push(performance.now() - began);
  }
  return took;
};

const round = async (mode: 'sqlite' | 'thread', transactions: number): Promise<number[]> => {
  const temp = tempDatabase('wal-checkpoint-stalls');
  const db = openReadModelDatabase(temp.file);
  const checkpointer = mode === 'thread' ? await WalCheckpointer.start(db) : null;
  try {
    return commits(db, transactions);
  } finally {
    await checkpointer?.stop();
    db.close();
    temp.done();
  }
};

const summary = (ms: number[]): string => {
  const s = sorted(ms);
  return `p50 ${percentile(s, 50, true).toFixed(1)} ms, p99 ${percentile(s, 99, true).toFixed(1)} ms, max ${s[s.length - 1].toFixed(0)} ms, over 100 ms: ${s.filter((x) => x > 100).length}`;
};

const main = async (): Promise<void> => {
  const rounds = Number(process.argv[2] ?? 3);
  const transactions = Number(process.argv[3] ?? 300);
  console.log(`\`node dist/bench/src/profile/wal-checkpoint-stalls.js ${rounds} ${transactions}\`: load average ${loadavg()[0].toFixed(2)} at start`);
  for (let r = 1; r <= rounds; r++) {
    for (const mode of ['sqlite', 'thread'] as const) {
      const label = mode === 'sqlite' ? "SQLite's own checkpoint in the commit" : 'copies on a WalCheckpointer thread';
      console.log(`- round ${r}, ${label}: ${transactions} commits, ${summary(await round(mode, transactions))}`);
    }
  }
  console.log(`load average ${loadavg()[0].toFixed(2)} at end`);
};

void main();
