import type { Database } from 'better-sqlite3';
import type { AppendResult } from '../event-store.port';
import type { AppendRequest } from './append-request';
import type { BatchOutcome, CommitBatch } from './group-commit';
import type { SqliteStreamAppender } from './sqlite-stream-appender';

const recordedAtFrom = (clock: () => Date): string => {
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
 */
export const sqliteBatchWriter = (
  db: Database,
  appender: Pick<SqliteStreamAppender, 'append'>,
  clock: () => Date,
): CommitBatch<AppendRequest, AppendResult> => {
  const appendInSavepoint = db.transaction((request: AppendRequest) => appender.append(request, recordedAtFrom(clock)));
  const writeBatch = db.transaction((requests: AppendRequest[]) =>
    requests.map((request): BatchOutcome<AppendResult> => {
      try {
        return { ok: true, value: appendInSavepoint(request) };
      } catch (error) {
        if (!db.inTransaction) throw error;
        return { ok: false, error };
      }
    }),
  );
  return (requests) => writeBatch.immediate(requests);
};
