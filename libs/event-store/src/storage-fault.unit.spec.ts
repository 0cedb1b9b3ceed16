import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { asStorageFault, storageFaultCodeOf, StorageFaultError } from './storage-fault';

const sqlite = (code: string) => new Database.SqliteError('from the driver', code);
const errno = (code: string) => Object.assign(new Error(code), { code });

describe('storage faults in one vocabulary', () => {
  it('names the condition behind SQLite codes and file-system errnos, through wrapping causes', () => {
    assert.equal(storageFaultCodeOf(sqlite('SQLITE_FULL')), 'storage_full');
    assert.equal(storageFaultCodeOf(errno('ENOSPC')), 'storage_full');
    assert.equal(storageFaultCodeOf(errno('EDQUOT')), 'storage_full');
    assert.equal(storageFaultCodeOf(errno('EROFS')), 'storage_read_only');
    assert.equal(storageFaultCodeOf(sqlite('SQLITE_READONLY_DBMOVED')), 'storage_read_only');
    assert.equal(storageFaultCodeOf(sqlite('SQLITE_IOERR_WRITE')), 'storage_io_error');
    assert.equal(storageFaultCodeOf(new Error('wrapped', { cause: sqlite('SQLITE_FULL') })), 'storage_full');
    assert.equal(storageFaultCodeOf(new StorageFaultError('storage_replaced', 'gone')), 'storage_replaced');
  });

  it('leaves every other error alone, so it is handled as before', () => {
    for (const error of [sqlite('SQLITE_CONSTRAINT_UNIQUE'), sqlite('SQLITE_BUSY'), errno('ENOENT'), new Error('boom'), null, 'text']) {
      assert.equal(asStorageFault(error), null, String(error));
    }
  });
});
