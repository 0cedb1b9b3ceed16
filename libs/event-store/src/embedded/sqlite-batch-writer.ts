import type { Database } from 'better-sqlite3';
import type { AppendResult } from '../event-store.port';
import type { AppendRequest } from './append-request';
import type { BatchOutcome } from './group-commit';
import type { SqliteStreamAppender } from './sqlite-stream-appender';

/** What one append did: its result, and whether it stored anything (false: an idempotent retry of stored events). */
export interface WrittenAppend extends AppendResult {
  written: boolean;
}

/** A committed batch: one outcome per request, in order, and the time its written events were stamped with. */
export interface WrittenBatch {
  outcomes: BatchOutcome<WrittenAppend>[];
  recordedAt: string;
}

/** Commits one batch; `clockTime` is the batch's time, read once from the store's clock (see the stamp below). */
export type WriteBatch = (requests: AppendRequest[], clockTime: string) => WrittenBatch;

/** The store's clock, read once per batch (on the thread that owns the clock), checked. */
export const recordedAtFrom = (clock: () => Date): string => {
  const now = clock();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new TypeError('SqliteStoreOptions.clock must return a valid Date');
  }
  return now.toISOString();
};

/**
 * The SQLite side of group commit: one BEGIN IMMEDIATE transaction per batch (so the
 * write lock is taken before any expected revision is read, and no other connection
 * or process can write in between), and one SAVEPOINT per append inside it
 * (better-sqlite3 turns a nested transaction function into a savepoint). A refused
 * append (ConcurrencyError, EventIdConflictError) rolls back to its savepoint only;
 * later appends in the batch see the earlier ones' writes.
 *
 * If an error left SQLite with no open transaction (it rolls the whole transaction back
 * on some I/O errors), the batch is aborted: every append of it fails, none is committed.
 *
 * The batch is stamped no earlier than the newest event already stored, read under the
 * write lock: the clock is read before the lock is taken (another process may hold it for
 * a while) and may step back, and finding a position by time (positionAtTime) needs times
 * that never fall as positions rise. ISO-8601 UTC strings compare in time order.
 *
 * `beforeCommit` runs inside the transaction after the last append (the crash tests
 * pause the writer there to kill the process mid-commit).
 */
export const sqliteBatchWriter = (
  db: Database,
  appender: Pick<SqliteStreamAppender, 'append' | 'latestRecordedAt'>,
  beforeCommit: () => void = () => undefined,
): WriteBatch => {
  const appendInSavepoint = db.transaction((request: AppendRequest, recordedAt: string) => appender.append(request, recordedAt));
  const writeBatch = db.transaction((requests: AppendRequest[], clockTime: string) => {
    const latest = appender.latestRecordedAt();
    const recordedAt = latest !== undefined && latest > clockTime ? latest : clockTime;
    const outcomes = requests.map((request): BatchOutcome<WrittenAppend> => {
      try {
        return { ok: true, value: appendInSavepoint(request, recordedAt) };
      } catch (error) {
        if (!db.inTransaction) throw error;
        return { ok: false, error };
      }
    });
    beforeCommit();
    return { outcomes, recordedAt };
  });
  return (requests, clockTime) => writeBatch.immediate(requests, clockTime);
};
