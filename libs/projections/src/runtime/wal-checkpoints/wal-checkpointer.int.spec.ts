/**
 * WalCheckpointer on a real read-model file: the connection it serves never copies the WAL
 * back on its commits (that is what stalled the event loop), its thread does, and the
 * connection takes SQLite's threshold back when the thread stops.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type Database from 'better-sqlite3';
import { openReadModelDatabase, READ_MODEL_PAGE_SIZE } from '../read-model-database';
import { eventually } from '../testing/eventually';
import { WalCheckpointer } from './wal-checkpointer';
import type { WalCheckpointDone } from './wal-checkpoint-protocol';

const dir = mkdtempSync(join(tmpdir(), 'ledger-wal-checkpoints-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** SQLite's default: a commit that leaves the WAL over this many pages copies it back. */
const SQLITE_THRESHOLD_PAGES = 1_000;
const ROW_BYTES = 8_000;

const fileWithTable = (name: string): { db: Database.Database; file: string } => {
  const file = join(dir, `${name}.sqlite`);
  const db = openReadModelDatabase(file);
  db.exec('CREATE TABLE pages (body TEXT NOT NULL)');
  return { db, file };
};

/** Commits rows filling `pages` pages of the file, a transaction per 40 rows (a read model's pages); answers their bytes. */
const commitPages = (db: Database.Database, pages: number): number => {
  const insert = db.prepare('INSERT INTO pages VALUES (?)');
  const rows = Math.ceil((pages * READ_MODEL_PAGE_SIZE) / ROW_BYTES / 40) * 40;
  for (let done = 0; done < rows; done += 40) db.transaction(() => Array.from({ length: 40 }, (_, i) => insert.run(`${done + i}`.padEnd(ROW_BYTES, '.'))))();
  return rows * ROW_BYTES;
};

const bytes = (file: string): number => statSync(file).size;
const WAL_OVER_THRESHOLD = SQLITE_THRESHOLD_PAGES * READ_MODEL_PAGE_SIZE;

/** Commits past SQLite's threshold and finds the file grown: a commit copied the WAL back. */
const assertCommitsCopyBack = (db: Database.Database, file: string): void => {
  const before = bytes(file);
  commitPages(db, 1_500);
  assert.ok(bytes(file) > before + 100 * READ_MODEL_PAGE_SIZE, `the file holds ${bytes(file)} bytes: no commit copied the WAL back`);
};

describe('the read-model WAL copied back on a thread of its own', () => {
  it('without it, a commit copies the WAL back once it is over 1,000 pages (the stall it takes off the event loop)', () => {
    const { db, file } = fileWithTable('by-commits');
    try {
      assertCommitsCopyBack(db, file);
    } finally {
      db.close();
    }
  });

  it('while it runs, no commit of the connection copies the WAL back; its thread does, and says so', async () => {
    const { db, file } = fileWithTable('by-thread');
    const done: WalCheckpointDone[] = [];
    // A first tick far away: the commits below must leave the WAL alone by themselves.
    let checkpointer = await WalCheckpointer.start(db, { pollMs: 600_000 });
    try {
      assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 0);
      const before = bytes(file);
      const written = commitPages(db, 1_500);
      assert.equal(bytes(file), before, 'a commit copied the WAL back into the file');
      assert.ok(bytes(`${file}-wal`) > WAL_OVER_THRESHOLD);
      await checkpointer.stop();
      checkpointer = await WalCheckpointer.start(db, { pollMs: 20, onCheckpoint: (checkpoint) => done.push(checkpoint) });
      await eventually(() => bytes(file) >= written, 'the thread to copy the WAL into the file');
      await eventually(
        () => done.some((checkpoint) => checkpoint.copiedFrames >= 1_500 && checkpoint.copiedFrames === checkpoint.walFrames),
        'the thread to say it copied every frame',
      );
      // An idle file: the thread's looks find nothing to copy and tell nothing.
      const told = done.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(done.length, told);
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it('lets a WAL under its threshold be, as SQLite would, and copies it back once over it', async () => {
    const { db, file } = fileWithTable('threshold');
    const done: WalCheckpointDone[] = [];
    const checkpointer = await WalCheckpointer.start(db, { pollMs: 10, thresholdPages: 400, onCheckpoint: (checkpoint) => done.push(checkpoint) });
    try {
      const before = bytes(file);
      commitPages(db, 200);
      // Twenty looks at a WAL of about 200 pages: none copies it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(bytes(file), before);
      assert.equal(done.length, 0);
      commitPages(db, 300);
      await eventually(() => done.length > 0, 'the thread to copy a WAL over its threshold back');
      assert.ok(done[0].walFrames >= 400, `copied a WAL of ${done[0].walFrames} frames`);
      await eventually(() => bytes(file) > before, 'the pages to be in the file');
    } finally {
      await checkpointer.stop();
      db.close();
    }
  });

  it('once stopped, the connection copies the WAL back on its commits again', async () => {
    const { db, file } = fileWithTable('stopped');
    try {
      const checkpointer = await WalCheckpointer.start(db, { pollMs: 600_000 });
      await checkpointer.stop();
      await checkpointer.stop();
      assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), SQLITE_THRESHOLD_PAGES);
      assertCommitsCopyBack(db, file);
    } finally {
      db.close();
    }
  });

  it('refuses a connection with no WAL of its own to hand over', async () => {
    const { db, file } = fileWithTable('refused');
    const reader = openReadModelDatabase(file, { readonly: true });
    try {
      await assert.rejects(WalCheckpointer.start(reader), /only a file in WAL mode, open for writing/);
    } finally {
      reader.close();
      db.close();
    }
  });
});
