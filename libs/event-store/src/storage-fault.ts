import { accessSync, constants, statfsSync } from 'node:fs';

/**
 * Why a write could not reach the disk, as an operator would say it:
 * - `storage_full`: no space left (SQLITE_FULL, ENOSPC, EDQUOT);
 * - `storage_read_only`: the file system or the file is read-only (EROFS, SQLITE_READONLY*);
 * - `storage_replaced`: the file the ledger opened is gone or another file now has its name;
 * - `storage_io_error`: any other I/O failure (SQLITE_IOERR*, EIO).
 * Each is a condition of the machine, not of the request: the same request succeeds once
 * the condition ends, so it is answered 503 with Retry-After, never 500.
 */
export type StorageFaultCode = 'storage_full' | 'storage_read_only' | 'storage_replaced' | 'storage_io_error';

/** A write refused because the storage cannot take it; `cause` is the driver's error. */
export class StorageFaultError extends Error {
  override readonly name = 'StorageFaultError';
  constructor(
    readonly code: StorageFaultCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const SQLITE_CODES: ReadonlyArray<[prefix: string, code: StorageFaultCode]> = [
  ['SQLITE_FULL', 'storage_full'],
  ['SQLITE_READONLY', 'storage_read_only'],
  ['SQLITE_IOERR', 'storage_io_error'],
  ['SQLITE_CANTOPEN', 'storage_io_error'],
];

const ERRNO_CODES: Record<string, StorageFaultCode> = {
  ENOSPC: 'storage_full',
  EDQUOT: 'storage_full',
  EROFS: 'storage_read_only',
  EIO: 'storage_io_error',
};

const MESSAGES: Record<StorageFaultCode, string> = {
  storage_full: 'the disk holding the ledger is full',
  storage_read_only: 'the file system holding the ledger is read-only',
  storage_replaced: 'a ledger file was removed or replaced under the running ledger',
  storage_io_error: 'the disk holding the ledger failed a write',
};

/** The storage condition behind `error` (a driver or file-system error, possibly wrapped), or null for anything else. */
export const storageFaultCodeOf = (error: unknown): StorageFaultCode | null => {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof StorageFaultError) return current.code;
    const code = (current as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (ERRNO_CODES[code]) return ERRNO_CODES[code];
    const sqlite = SQLITE_CODES.find(([prefix]) => code.startsWith(prefix));
    if (sqlite) return sqlite[1];
  }
  return null;
};

/** `error` as a StorageFaultError if it is one of the storage conditions, else null. */
export const asStorageFault = (error: unknown): StorageFaultError | null => {
  if (error instanceof StorageFaultError) return error;
  const code = storageFaultCodeOf(error);
  return code ? new StorageFaultError(code, MESSAGES[code], { cause: error }) : null;
};

/** Less free space than this on a directory's file system counts as full. */
const NEARLY_FULL_BYTES = 1024 * 1024;

/**
 * `error` as a StorageFaultError, with a generic I/O error told apart by looking at the
 * directories the files live in: SQLite reports a full disk while growing its shared
 * memory file, or a write on a read-only file system, as an I/O error.
 */
export const diagnoseStorageFault = (error: unknown, dirs: readonly string[]): StorageFaultError | null => {
  const fault = asStorageFault(error);
  if (!fault || fault.code !== 'storage_io_error') return fault;
  for (const dir of new Set(dirs)) {
    try {
      accessSync(dir, constants.W_OK);
      const space = statfsSync(dir);
      if (space.bavail * space.bsize < NEARLY_FULL_BYTES) return new StorageFaultError('storage_full', MESSAGES.storage_full, { cause: error });
    } catch (probe) {
      if ((probe as NodeJS.ErrnoException).code === 'EROFS') return new StorageFaultError('storage_read_only', MESSAGES.storage_read_only, { cause: error });
    }
  }
  return fault;
};
