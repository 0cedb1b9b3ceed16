import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ConcurrencyError } from '../../concurrency-error';
import { EventIdConflictError } from '../event-id-conflict-error';
import { StorageFaultError, storageFaultCodeOf } from '../../storage-fault';
import { fromWireError, toWireError } from './writer-protocol';

/** What the main thread gets after the error went through postMessage's structured clone. */
const acrossThreads = (error: unknown): Error => fromWireError(structuredClone(toWireError(error)));

describe('writer protocol: errors across the thread boundary', () => {
  it('keeps a SqliteError a SqliteError with its code unchanged (storage faults are classified by it)', () => {
    for (const code of ['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_READONLY', 'SQLITE_BUSY']) {
      const crossed = acrossThreads(new Database.SqliteError(`failed with ${code}`, code));
      assert.ok(crossed instanceof Database.SqliteError, code);
      assert.equal((crossed as { code?: string }).code, code);
      assert.equal(crossed.message, `failed with ${code}`);
      assert.equal(crossed.name, 'SqliteError');
    }
  });

  it("keeps a Node errno error's code (EROFS, ENOSPC) and name", () => {
    const erofs = Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS', errno: -30 });
    const crossed = acrossThreads(erofs);
    assert.equal((crossed as { code?: string }).code, 'EROFS');
    assert.equal((crossed as { errno?: number }).errno, -30);
  });

  it("rebuilds the command side's own errors as their classes, fields included", () => {
    const conflict = acrossThreads(new ConcurrencyError('node-a', 3, 5));
    assert.ok(conflict instanceof ConcurrencyError);
    assert.deepEqual([conflict.stream, conflict.expected, conflict.actual, conflict.message], ['node-a', 3, 5, new ConcurrencyError('node-a', 3, 5).message]);
    const original = new EventIdConflictError('node-b', 'e-1', 'is already stored in another stream (node-c)');
    const idConflict = acrossThreads(original);
    assert.ok(idConflict instanceof EventIdConflictError);
    assert.deepEqual([idConflict.stream, idConflict.eventId, idConflict.message], ['node-b', 'e-1', original.message]);
  });

  it('keeps a replaced store file a StorageFaultError with its code (the writer thread checks the file before each commit)', () => {
    const crossed = acrossThreads(new StorageFaultError('storage_replaced', '/data/events.db was replaced by another file'));
    assert.ok(crossed instanceof StorageFaultError);
    assert.equal(storageFaultCodeOf(crossed), 'storage_replaced');
    assert.equal(crossed.message, '/data/events.db was replaced by another file');
  });

  it('keeps TypeError a TypeError and anything else an Error with its message', () => {
    assert.ok(acrossThreads(new TypeError('bad clock')) instanceof TypeError);
    assert.equal(acrossThreads('a string').message, 'a string');
  });
});
