import { join, resolve } from 'node:path';

export type StoreKind = 'embedded' | 'eventstoredb';
export type SqliteSynchronous = 'FULL' | 'NORMAL' | 'EXTRA';

/** Everything configurable, from environment variables (documented in the README's table). */
export interface LedgerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Where this instance keeps its read models (default: dataDir). Each instance needs its own. */
  readModelDir: string;
  store: StoreKind;
  esdbUrl: string | null;
  logLevel: string;
  /** How long the request lines of answered requests may be held to go out in one write with later ones (0: as each batch of bookkeeping ends). */
  logBatchMs: number;
  sqliteSynchronous: SqliteSynchronous;
  readWaitMs: number;
  /** How often the read models are checkpointed while events flow (and at every graceful stop). */
  checkpointIntervalMs: number;
  /** Pages of the read-model file's WAL its checkpoint thread lets gather before it copies them back into the file. */
  readModelWalCheckpointPages: number;
  maxBodyBytes: number;
  reservationTtlDefaultSeconds: number;
  reservationTtlMaxSeconds: number;
  keysFile: string;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** Requests without a valid key, per client address: sustained rate and burst (a flood of wrong keys is limited too). */
  authFailureRatePerSecond: number;
  authFailureBurst: number;
  /** How long the server keeps an idle keep-alive connection: above any client's own idle timeout, so the client closes first. */
  keepAliveTimeoutMs: number;
  /** Node health (seed 4): failed power syncs in a row that fault a node, the deploy timeout, and how often it is checked. */
  powerFailuresForFault: number;
  deployTimeoutSeconds: number;
  healthCheckIntervalMs: number;
  /** Run the lease cascade in this process (with several processes on one store, one is enough). */
  leaseCascade: boolean;
  /** Time travel: the ledger view is snapshotted each time its position crosses a multiple of this (0: never). */
  snapshotEvery: number;
  /** Embedded store: how often subscriptions look for events appended by other processes. */
  sqlitePollMs: number;
  /** Readiness: the most events a read model or the lease cascade may trail the log by and still be ready. */
  readyMaxLagEvents: number;
  /** A full or read-only disk: the Retry-After of the 503s, and how often the disk is tried again. */
  storageRetryAfterSeconds: number;
  storageProbeIntervalMs: number;
  /**
   * Crash tests only (test/mid-commit-kill.e2e.spec.ts): the writer thread pauses for good
   * inside this write transaction, before COMMIT, so the test can kill the process there.
   */
  testWriterPauseInCommit: number | null;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const integer = (env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
};

const oneOf = <T extends string>(env: NodeJS.ProcessEnv, name: string, fallback: T, allowed: readonly T[]): T => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!allowed.includes(raw as T)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): LedgerConfig => {
  const store = oneOf<StoreKind>(env, 'LEDGER_STORE', 'embedded', ['embedded', 'eventstoredb']);
  const esdbUrl = env.LEDGER_ESDB_URL || null;
  if (store === 'eventstoredb' && !esdbUrl) throw new ConfigError('LEDGER_STORE=eventstoredb needs LEDGER_ESDB_URL (esdb://host:2113?tls=false)');
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.LEDGER_DATA_DIR || './data'),
    readModelDir: resolve(env.LEDGER_READ_MODEL_DIR || env.LEDGER_DATA_DIR || './data'),
    store,
    esdbUrl,
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    logBatchMs: integer(env, 'LEDGER_LOG_BATCH_MS', 20, 0, 1_000),
    sqliteSynchronous: oneOf<SqliteSynchronous>(env, 'LEDGER_SQLITE_SYNCHRONOUS', 'FULL', ['FULL', 'NORMAL', 'EXTRA']),
    readWaitMs: integer(env, 'LEDGER_READ_WAIT_MS', 5_000, 0, 60_000),
    checkpointIntervalMs: integer(env, 'LEDGER_CHECKPOINT_INTERVAL_MS', 5_000, 10, 3_600_000),
    readModelWalCheckpointPages: integer(env, 'LEDGER_READ_MODEL_WAL_CHECKPOINT_PAGES', 1_000, 10, 1_000_000),
    maxBodyBytes: integer(env, 'LEDGER_MAX_BODY_BYTES', 1_048_576, 1_024, 64 * 1_048_576),
    reservationTtlDefaultSeconds: integer(env, 'LEDGER_RESERVATION_TTL_SECONDS', 3_600, 1, 30 * 86_400),
    reservationTtlMaxSeconds: integer(env, 'LEDGER_RESERVATION_TTL_MAX_SECONDS', 7 * 86_400, 1, 365 * 86_400),
    keysFile: resolve(env.LEDGER_KEYS_FILE || join(env.LEDGER_DATA_DIR || './data', 'keys.json')),
    rateLimitPerSecond: integer(env, 'LEDGER_RATE_LIMIT_PER_SECOND', 1_000, 1, 1_000_000),
    rateLimitBurst: integer(env, 'LEDGER_RATE_LIMIT_BURST', 2_000, 1, 1_000_000),
    authFailureRatePerSecond: integer(env, 'LEDGER_AUTH_FAILURE_RATE_PER_SECOND', 10, 1, 1_000_000),
    authFailureBurst: integer(env, 'LEDGER_AUTH_FAILURE_BURST', 200, 1, 1_000_000),
    keepAliveTimeoutMs: integer(env, 'LEDGER_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1_000, 3_600_000),
    powerFailuresForFault: integer(env, 'LEDGER_POWER_FAILURES_FOR_FAULT', 3, 1, 1_000),
    deployTimeoutSeconds: integer(env, 'LEDGER_DEPLOY_TIMEOUT_SECONDS', 1_800, 1, 30 * 86_400),
    healthCheckIntervalMs: integer(env, 'LEDGER_HEALTH_CHECK_INTERVAL_MS', 10_000, 10, 3_600_000),
    leaseCascade: oneOf(env, 'LEDGER_LEASE_CASCADE', 'on', ['on', 'off']) === 'on',
    snapshotEvery: integer(env, 'LEDGER_SNAPSHOT_EVERY', 10_000, 0, 100_000_000),
    sqlitePollMs: integer(env, 'LEDGER_SQLITE_POLL_MS', 100, 10, 3_600_000),
    readyMaxLagEvents: integer(env, 'LEDGER_READY_MAX_LAG_EVENTS', 1_000, 0, 1_000_000_000),
    storageRetryAfterSeconds: integer(env, 'LEDGER_STORAGE_RETRY_AFTER_SECONDS', 5, 1, 3_600),
    storageProbeIntervalMs: integer(env, 'LEDGER_STORAGE_PROBE_INTERVAL_MS', 1_000, 10, 600_000),
    testWriterPauseInCommit: env.LEDGER_TEST_WRITER_PAUSE_IN_COMMIT ? integer(env, 'LEDGER_TEST_WRITER_PAUSE_IN_COMMIT', 0, 1, 1_000_000_000) : null,
  };
};
