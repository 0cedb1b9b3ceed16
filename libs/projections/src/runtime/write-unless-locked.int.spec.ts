/**
 * writeUnlessLocked against a real read-model file and a second connection holding its
 * write lock, as the audit index's thread or a CLI rebuild does beside the main thread.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openReadModelDatabase } from './read-model-database';
import { LOCKED, writeUnlessLocked } from './write-unless-locked';

const dir = mkdtempSync(join(tmpdir(), 'ledger-write-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The file with a table, the connection that writes it, and another one that takes the lock. */
const twoConnections = (name: string) => {
  const file = join(dir, `${name}.sqlite`);
  const db = openReadModelDatabase(file);
  db.exec('CREATE TABLE notes (text TEXT NOT NULL)');
  const other = new Database(file);
  const notes = () => db.prepare('SELECT text FROM notes ORDER BY rowid').pluck().all();
  const close = () => {
    if (other.inTransaction) other.prepare('ROLLBACK').run();
    other.close();
    db.close();
  };
  return { db, other, notes, close };
};

describe('a write that gives way to another holder of the write lock', () => {
  it('writes nothing and answers LOCKED at once while another connection holds the lock; writes once it is free', () => {
    const { db, other, notes, close } = twoConnections('gives-way');
    try {
      // A write that waited would sleep here for the whole busy timeout before it gave up.
      db.pragma('busy_timeout = 20000');
      other.prepare('BEGIN IMMEDIATE').run();
      let called = false;
      const write = () => {
        called = true;
        db.prepare("INSERT INTO notes VALUES ('kept')").run();
        return 'written';
      };
      const began = performance.now();
      assert.equal(writeUnlessLocked(db, write, { wait: false }), LOCKED);
      assert.ok(performance.now() - began < 10_000, 'it waited for the lock');
      // The write was never begun, so its caller decided nothing, and the connection keeps its patience.
      assert.equal(called, false);
      assert.equal(db.pragma('busy_timeout', { simple: true }), 20000);
      other.prepare('COMMIT').run();
      assert.equal(writeUnlessLocked(db, write, { wait: false }), 'written');
      assert.deepEqual(notes(), ['kept']);
    } finally {
      close();
    }
  });

  it('with wait, waits for the lock as long as the connection’s busy timeout allows, and answers LOCKED if it is still taken', () => {
    const { db, other, notes, close } = twoConnections('waits');
    try {
      db.pragma('busy_timeout = 50');
      other.prepare('BEGIN IMMEDIATE').run();
      const began = performance.now();
      assert.equal(
        writeUnlessLocked(db, () => db.prepare("INSERT INTO notes VALUES ('x')").run(), { wait: true }),
        LOCKED,
      );
      // A lower bound only: SQLite's busy handler slept on this thread before it gave up.
      assert.ok(performance.now() - began >= 45);
      other.prepare('COMMIT').run();
      assert.deepEqual(notes(), []);
    } finally {
      close();
    }
  });

  it('rolls back and rethrows a write that fails once begun: only a lock taken before it is LOCKED', () => {
    const { db, notes, close } = twoConnections('fails');
    try {
      const failing = () => {
        db.prepare("INSERT INTO notes VALUES ('half')").run();
        throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
      };
      assert.throws(() => writeUnlessLocked(db, failing, { wait: false }), { code: 'SQLITE_FULL' });
      assert.deepEqual(notes(), []);
      assert.equal(db.inTransaction, false);
    } finally {
      close();
    }
  });

  it('inside a transaction already open on the connection, is a savepoint of it', () => {
    const { db, notes, close } = twoConnections('nested');
    try {
      db.transaction(() => {
        db.prepare("INSERT INTO notes VALUES ('outer')").run();
        writeUnlessLocked(db, () => db.prepare("INSERT INTO notes VALUES ('inner')").run(), { wait: false });
      })();
      assert.deepEqual(notes(), ['outer', 'inner']);
    } finally {
      close();
    }
  });
});
