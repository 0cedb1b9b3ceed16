/**
 * How durable an acknowledged append is. The pragma is set explicitly on every
 * connection (it is not stored in the file) and the store runs in WAL mode:
 *
 * - 'FULL' (default): the WAL is fsynced at every commit, before the append's promise
 *   resolves. An acknowledged append survives a process crash AND a power loss / OS crash.
 * - 'EXTRA': as FULL (in WAL mode it adds nothing for commits; it also syncs the
 *   directory after a rollback journal is deleted, which WAL mode does not use).
 * - 'NORMAL': the WAL is fsynced only at checkpoints. An acknowledged append survives
 *   a process crash, but the most recent commits can be lost on power loss or OS crash
 *   (the database stays consistent, it just ends at an earlier commit).
 */
export type SqliteSynchronous = 'FULL' | 'NORMAL' | 'EXTRA';

export interface SqliteStoreOptions {
  /** Path of the database file; ':memory:' works for quick experiments (one handle only). */
  file: string;
  /** Durability of an acknowledged append; see SqliteSynchronous. Default 'FULL'. */
  synchronous?: SqliteSynchronous;
  /** Source of `recordedAt`. Default: the system clock. */
  clock?: () => Date;
  /** How often a live subscription polls for appends made by other processes. Default 100. */
  pollIntervalMs?: number;
  /** How long a write waits for another process's write lock before failing. Default 5000. */
  busyTimeoutMs?: number;
  /** Most appends committed together in one group-commit transaction. Default 256. */
  maxBatch?: number;
  /**
   * Crash tests only: the writer thread pauses for good inside this write transaction
   * (1-based), after its appends and before COMMIT, and says so on stderr, so a test can
   * kill the process mid-commit. Default null (never).
   */
  testPauseInCommit?: number | null;
}

export type ResolvedSqliteStoreOptions = Required<SqliteStoreOptions>;

const SYNCHRONOUS_LEVELS: readonly SqliteSynchronous[] = ['FULL', 'NORMAL', 'EXTRA'];

const positiveInteger = (name: string, value: number): number => {
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`SqliteStoreOptions.${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
};

export const resolveSqliteStoreOptions = (options: SqliteStoreOptions): ResolvedSqliteStoreOptions => {
  if (typeof options.file !== 'string' || options.file === '') {
    throw new TypeError('SqliteStoreOptions.file must be a non-empty path (or ":memory:")');
  }
  const synchronous = options.synchronous ?? 'FULL';
  if (!SYNCHRONOUS_LEVELS.includes(synchronous)) {
    throw new TypeError(`SqliteStoreOptions.synchronous must be one of ${SYNCHRONOUS_LEVELS.join(', ')}`);
  }
  return {
    file: options.file,
    synchronous,
    clock: options.clock ?? (() => new Date()),
    pollIntervalMs: positiveInteger('pollIntervalMs', options.pollIntervalMs ?? 100),
    busyTimeoutMs: positiveInteger('busyTimeoutMs', options.busyTimeoutMs ?? 5000),
    maxBatch: positiveInteger('maxBatch', options.maxBatch ?? 256),
    testPauseInCommit: options.testPauseInCommit == null ? null : positiveInteger('testPauseInCommit', options.testPauseInCommit),
  };
};
