import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from './schema';
import { SqliteEventStore } from './sqlite-event-store';
import { type TempStoreFile, tempStoreFile } from './testing/temp-store-file';
import { testEvents } from './testing/test-events';

describe('embedded store schema', () => {
  let temp: TempStoreFile;
  let raw: Database.Database;
  before(async () => {
    temp = await tempStoreFile('schema');
    const store = await SqliteEventStore.open({ file: temp.file });
    await store.appendToStream('node-immutable', testEvents(2), 'no_stream');
    await store.close();
    raw = new Database(temp.file);
  });
  after(async () => {
    raw.close();
    await temp.remove();
  });

  it('refuses UPDATE of an event, whoever holds the file', () => {
    assert.throws(() => raw.prepare("UPDATE events SET type = 'Rewritten' WHERE stream = 'node-immutable'").run(), /UPDATE of events is refused/);
    assert.throws(() => raw.prepare('UPDATE events SET position = position + 100').run(), /UPDATE of events is refused/);
  });

  it('refuses DELETE of an event', () => {
    assert.throws(() => raw.prepare("DELETE FROM events WHERE stream = 'node-immutable'").run(), /DELETE of events is refused/);
    const count = raw.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number };
    assert.equal(count.n, 2);
  });

  it('records its schema version in user_version and keeps the current revision of each stream', () => {
    assert.equal(raw.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.deepEqual(raw.prepare('SELECT stream, revision FROM streams').all(), [{ stream: 'node-immutable', revision: 1 }]);
  });

  it('is in WAL mode', () => {
    assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
  });

  it('refuses to open a file written by a newer schema version', async () => {
    const newer = await tempStoreFile('schema-newer');
    try {
      const db = new Database(newer.file);
      db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      db.close();
      await assert.rejects(SqliteEventStore.open({ file: newer.file }), /newer than this code understands/);
    } finally {
      await newer.remove();
    }
  });
});
