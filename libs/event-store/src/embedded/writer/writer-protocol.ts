import Database from 'better-sqlite3';
import { ConcurrencyError } from '../../concurrency-error';
import type { AppendRequest } from '../append-request';
import { EventIdConflictError } from '../event-id-conflict-error';
import type { BatchOutcome } from '../group-commit';
import type { WrittenAppend, WrittenBatch } from '../sqlite-batch-writer';
import { StorageFaultError } from '../../storage-fault';
import type { SqliteSynchronous } from '../sqlite-store-options';

/** What the writer thread needs to open its connection (the clock stays on the main thread). */
export interface WriterSettings {
  file: string;
  synchronous: SqliteSynchronous;
  busyTimeoutMs: number;
  /** Test hook: pause forever inside this write transaction (1-based), after its appends, before COMMIT. */
  pauseInCommit: number | null;
}

/** Main thread to writer: one batch at a time (group commit waits for the answer), then close. */
export type ToWriter = { kind: 'commit'; requests: AppendRequest[]; clockTime: string } | { kind: 'close' };

/** Writer to main thread. */
export type FromWriter =
  | { kind: 'ready' }
  | { kind: 'open-failed'; error: WireError }
  | { kind: 'committed'; outcomes: WireOutcome[]; recordedAt: string }
  | { kind: 'failed'; error: WireError }
  | { kind: 'closed' };

/**
 * An error as it crosses the thread boundary. Structured clone keeps neither the class
 * nor extra fields, so the writer flattens each error it knows and the main thread
 * rebuilds the same class with the same fields: ConcurrencyError and
 * EventIdConflictError for the command side, StorageFaultError for a store file
 * replaced under the ledger, SqliteError with its `code` unchanged (SQLITE_FULL,
 * SQLITE_IOERR_*, ... are classified by the HTTP layer).
 */
export type WireError =
  | { kind: 'concurrency'; stream: string; expected: ConcurrencyError['expected']; actual: ConcurrencyError['actual'] }
  | { kind: 'storage-fault'; code: StorageFaultError['code']; message: string }
  | { kind: 'event-id-conflict'; stream: string; eventId: string; message: string }
  | { kind: 'error'; name: string; message: string; code?: string; errno?: number; stack?: string };

export type WireOutcome = { ok: true; value: WrittenAppend } | { ok: false; error: WireError };

export const toWireError = (error: unknown): WireError => {
  if (error instanceof ConcurrencyError) return { kind: 'concurrency', stream: error.stream, expected: error.expected, actual: error.actual };
  if (error instanceof EventIdConflictError) return { kind: 'event-id-conflict', stream: error.stream, eventId: error.eventId, message: error.message };
  if (error instanceof StorageFaultError) return { kind: 'storage-fault', code: error.code, message: error.message };
  if (error instanceof Error) {
    const { code, errno } = error as { code?: unknown; errno?: unknown };
    return {
      kind: 'error',
      name: error.name,
      message: error.message,
      ...(typeof code === 'string' ? { code } : {}),
      ...(typeof errno === 'number' ? { errno } : {}),
      stack: error.stack,
    };
  }
  return { kind: 'error', name: 'Error', message: String(error) };
};

const ERROR_CLASSES: Record<string, new (message: string) => Error> = { TypeError, RangeError };

export const fromWireError = (wire: WireError): Error => {
  if (wire.kind === 'concurrency') return new ConcurrencyError(wire.stream, wire.expected, wire.actual);
  if (wire.kind === 'event-id-conflict') return EventIdConflictError.withMessage(wire.stream, wire.eventId, wire.message);
  if (wire.kind === 'storage-fault') return new StorageFaultError(wire.code, wire.message);
  let error: Error;
  if (wire.name === 'SqliteError' && wire.code !== undefined) error = new Database.SqliteError(wire.message, wire.code);
  else {
    error = new (ERROR_CLASSES[wire.name] ?? Error)(wire.message);
    if (!(wire.name in ERROR_CLASSES) && wire.name !== 'Error') Object.defineProperty(error, 'name', { value: wire.name, configurable: true, writable: true });
    if (wire.code !== undefined) Object.assign(error, { code: wire.code });
  }
  if (wire.errno !== undefined) Object.assign(error, { errno: wire.errno });
  // The writer's stack says where SQLite failed; keep it after the main thread's own.
  if (wire.stack) error.stack = `${error.stack ?? ''}\n    --- on the writer thread ---\n${wire.stack}`;
  return error;
};

export const toWireBatch = (batch: WrittenBatch): FromWriter => ({
  kind: 'committed',
  outcomes: batch.outcomes.map((outcome) => (outcome.ok ? outcome : { ok: false, error: toWireError(outcome.error) })),
  recordedAt: batch.recordedAt,
});

export const fromWireBatch = (message: { outcomes: WireOutcome[]; recordedAt: string }): WrittenBatch => ({
  outcomes: message.outcomes.map((outcome): BatchOutcome<WrittenAppend> => (outcome.ok ? outcome : { ok: false, error: fromWireError(outcome.error) })),
  recordedAt: message.recordedAt,
});
