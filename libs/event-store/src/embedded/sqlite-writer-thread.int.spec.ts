import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
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

  it('lets a process whose store was never closed exit once its appends are acknowledged', () => {
    // A child that appends, prints the acknowledgement and simply returns: the idle writer thread must not hold it.
    const script = `
      const { SqliteEventStore } = require(${JSON.stringify(join(__dirname, 'sqlite-event-store.js'))});
      SqliteEventStore.open({ file: ${JSON.stringify(temp.file)} }).then(async (store) => {
        const result = await store.appendToStream('node-exit', [{ id: 'exit-1', type: 'T', data: {}, metadata: {} }], 'any');
        process.stdout.write(String(result.position));
      });`;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(child.signal, null, `the child did not exit by itself (stderr: ${child.stderr})`);
    assert.equal(child.status, 0, child.stderr);
    assert.match(child.stdout, /^\d+$/);
  });
});
