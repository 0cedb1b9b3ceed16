import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { AppendRequest } from './append-request';
import { type WrittenAppend, recordedAtFrom, sqliteBatchWriter } from './sqlite-batch-writer';

const request = (stream: string): AppendRequest => ({ stream, expectedRevision: 'any', events: [] });
const AT = '2031-02-03T04:05:06.789Z';

/** A scratch database and an appender that writes one row per append, then may fail. */
const scratch = (fail: (db: Database.Database, stream: string) => void) => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE written (stream TEXT NOT NULL, recorded_at TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO written (stream, recorded_at) VALUES (?, ?)');
  const newest = db.prepare('SELECT recorded_at FROM written ORDER BY rowid DESC LIMIT 1');
  const appender = {
    append: ({ stream }: AppendRequest, recordedAt: string): WrittenAppend => {
      insert.run(stream, recordedAt);
      fail(db, stream);
      return { nextExpectedRevision: 0, position: 1, written: true };
    },
    latestRecordedAt: () => (newest.get() as { recorded_at: string } | undefined)?.recorded_at,
  };
  const written = () => (db.prepare('SELECT stream FROM written ORDER BY rowid').all() as { stream: string }[]).map((row) => row.stream);
  return { db, written, writeBatch: sqliteBatchWriter(db, appender) };
};

describe('sqlite batch writer', () => {
  it('rolls a failed append back to its own savepoint, even after it wrote, and commits the rest', () => {
    const { db, written, writeBatch } = scratch((_db, stream) => {
      if (stream === 'fails') throw new Error('failed after writing');
    });
    const { outcomes } = writeBatch([request('first'), request('fails'), request('last')], AT);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.ok),
      [true, false, true],
    );
    assert.deepEqual(written(), ['first', 'last']);
    assert.equal(db.inTransaction, false);
    db.close();
  });

  it('aborts the whole batch when a failure ended the transaction itself', () => {
    const { db, written, writeBatch } = scratch((database, stream) => {
      if (stream === 'ends-transaction') {
        database.exec('ROLLBACK');
        throw new Error('the transaction is gone');
      }
    });
    assert.throws(() => writeBatch([request('first'), request('ends-transaction'), request('last')], AT), /transaction is gone/);
    assert.deepEqual(written(), []);
    assert.equal(db.inTransaction, false);
    db.close();
  });

  it('stamps every append of a batch with the batch time, and runs beforeCommit inside the transaction after the last append', () => {
    const db = new Database(':memory:');
    const seen: string[] = [];
    const appender = {
      append: (_request: AppendRequest, recordedAt: string): WrittenAppend => {
        seen.push(recordedAt);
        return { nextExpectedRevision: 0, position: 1, written: true };
      },
      latestRecordedAt: () => undefined,
    };
    let inTransactionBeforeCommit: boolean | undefined;
    let appendsBeforeCommit = 0;
    const writeBatch = sqliteBatchWriter(db, appender, () => {
      inTransactionBeforeCommit = db.inTransaction;
      appendsBeforeCommit = seen.length;
    });
    assert.deepEqual(
      writeBatch([request('a'), request('b')], AT).outcomes.map((outcome) => outcome.ok),
      [true, true],
    );
    assert.deepEqual(seen, [AT, AT]);
    assert.equal(inTransactionBeforeCommit, true);
    assert.equal(appendsBeforeCommit, 2);
    assert.equal(db.inTransaction, false);
    db.close();
  });

  it('reads recordedAt from the clock and refuses an invalid date', () => {
    assert.equal(
      recordedAtFrom(() => new Date(AT)),
      AT,
    );
    assert.throws(() => recordedAtFrom(() => new Date('not a date')), TypeError);
  });

  it('never stamps a batch earlier than the newest event stored (a clock read before the lock, or stepped back)', () => {
    const { db, writeBatch } = scratch(() => undefined);
    const stamps = () => (db.prepare('SELECT recorded_at FROM written ORDER BY rowid').all() as { recorded_at: string }[]).map((row) => row.recorded_at);
    const answered = [
      writeBatch([request('first')], AT),
      writeBatch([request('behind')], '2031-02-03T04:05:05.000Z'),
      writeBatch([request('ahead')], '2031-02-03T04:05:07.000Z'),
    ].map((batch) => batch.recordedAt);
    assert.deepEqual(stamps(), [AT, AT, '2031-02-03T04:05:07.000Z']);
    // The stamp is answered with the batch: a subscriber handed the events from memory sees what is stored.
    assert.deepEqual(answered, stamps());
    db.close();
  });
});
