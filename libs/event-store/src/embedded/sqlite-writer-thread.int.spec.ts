import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteEventStore } from './sqlite-event-store';
import { type TempStoreFile, tempStoreFile } from './testing/temp-store-file';
import { testEvent } from './testing/test-events';

describe('embedded store writer thread', () => {
  let temp: TempStoreFile;
  before(async () => {
    temp = await tempStoreFile('writer-thread');
  });
  after(async () => {
    await temp.remove();
  });

  it('hands a real SQLite failure from the writer thread to the caller as a SqliteError with its code', async () => {
    const store = await SqliteEventStore.open({ file: temp.file, busyTimeoutMs: 1 });
    const other = new Database(temp.file);
    try {
      other.exec('BEGIN IMMEDIATE');
      const refused = await store.appendToStream('node-busy', [testEvent()], 'no_stream').then(
        () => assert.fail('the append went through while another connection held the write lock'),
        (error: unknown) => error,
      );
      assert.ok(refused instanceof Database.SqliteError, `got ${String(refused)}`);
      assert.equal((refused as { code?: string }).code, 'SQLITE_BUSY');
      other.exec('ROLLBACK');
      const result = await store.appendToStream('node-busy', [testEvent()], 'no_stream');
      assert.equal(result.nextExpectedRevision, 0);
    } finally {
      other.close();
      await store.close();
    }
  });
});
