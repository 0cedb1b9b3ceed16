import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqliteConnection } from './sqlite-connection';
import { SqliteEventStore } from './sqlite-event-store';
import { resolveSqliteStoreOptions } from './sqlite-store-options';
import { tempStoreFile } from './testing/temp-store-file';
import { testEvent } from './testing/test-events';

describe('embedded store lifecycle', () => {
  it('starts empty: head 0, no events', async () => {
    const store = await SqliteEventStore.open({ file: ':memory:' });
    assert.equal(await store.headPosition(), 0);
    assert.deepEqual(await store.readAll(), []);
    const result = await store.appendToStream('node-memory', [testEvent()], 'no_stream');
    assert.deepEqual(result, { nextExpectedRevision: 0, position: 1 });
    assert.equal(await store.headPosition(), 1);
    await store.close();
  });

  it('stamps recordedAt from the injected clock', async () => {
    const store = await SqliteEventStore.open({ file: ':memory:', clock: () => new Date('2030-01-02T03:04:05.678Z') });
    await store.appendToStream('node-clock', [testEvent(), testEvent()], 'no_stream');
    const events = await store.readStream('node-clock');
    assert.deepEqual(
      events.map((event) => event.recordedAt),
      ['2030-01-02T03:04:05.678Z', '2030-01-02T03:04:05.678Z'],
    );
    await store.close();
  });

  it('sets the synchronous and busy_timeout pragmas it was given on every connection', async () => {
    const temp = await tempStoreFile('pragmas');
    try {
      const levels = { FULL: 2, NORMAL: 1, EXTRA: 3 } as const;
      for (const [synchronous, level] of Object.entries(levels)) {
        const db = openSqliteConnection(resolveSqliteStoreOptions({ file: temp.file, synchronous: synchronous as keyof typeof levels, busyTimeoutMs: 1234 }));
        assert.equal(db.pragma('synchronous', { simple: true }), level);
        assert.equal(db.pragma('busy_timeout', { simple: true }), 1234);
        assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
        db.close();
      }
      const defaults = openSqliteConnection(resolveSqliteStoreOptions({ file: temp.file }));
      assert.equal(defaults.pragma('synchronous', { simple: true }), levels.FULL);
      assert.equal(defaults.pragma('busy_timeout', { simple: true }), 5000);
      defaults.close();
    } finally {
      await temp.remove();
    }
  });

  it('refuses invalid options', async () => {
    await assert.rejects(SqliteEventStore.open({ file: '' }), TypeError);
    await assert.rejects(SqliteEventStore.open({ file: ':memory:', synchronous: 'OFF' as never }), TypeError);
    await assert.rejects(SqliteEventStore.open({ file: ':memory:', maxBatch: 0 }), TypeError);
    await assert.rejects(SqliteEventStore.open({ file: ':memory:', pollIntervalMs: -5 }), TypeError);
  });

  it('close() ends open subscriptions, and every later call is refused with a clear error', async () => {
    const store = await SqliteEventStore.open({ file: ':memory:' });
    await store.appendToStream('node-closing', [testEvent()], 'no_stream');
    const subscription = store.subscribeToAll();
    const delivered: string[] = [];
    const loop = (async () => {
      for await (const event of subscription) delivered.push(event.id);
    })();
    while (delivered.length === 0) await new Promise((resolve) => setImmediate(resolve));

    await store.close();
    await loop;
    await store.close();
    const closed = /SqliteEventStore\(:memory:\) is closed/;
    await assert.rejects(store.appendToStream('node-closing', [testEvent()], 'any'), closed);
    await assert.rejects(store.readStream('node-closing'), closed);
    await assert.rejects(store.readAll(), closed);
    await assert.rejects(store.headPosition(), closed);
    await assert.rejects(store.subscribeToAll()[Symbol.asyncIterator]().next(), closed);
  });
});
