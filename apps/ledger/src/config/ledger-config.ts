import { ConfigError, type Setting } from './setting';
import { LEDGER_SETTINGS, type SqliteSynchronous, type StoreKind } from './ledger-settings';

export { ConfigError };
export type { SqliteSynchronous, StoreKind };

type Read<S> = { -readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

/**
 * Everything configurable: what the variables in LEDGER_SETTINGS say, and what follows from
 * them. Values an operator never needs to change are constants below, each with its reason.
 */
export interface LedgerConfig extends Read<typeof LEDGER_SETTINGS> {
  /** A reservation asked for with no `ttlSeconds`: an hour, as long as the longest allowed is not shorter. */
  reservationTtlDefaultSeconds: number;
  /** A key may send twice its sustained rate at once (a client's retries after a pause). */
  rateLimitBurst: number;
  /** An address may send twenty seconds' worth of keyless requests at once (a restart of several clients). */
  authFailureBurst: number;
  /**
   * Idle keep-alive connections stay open past any client's own idle timeout (undici's is 4 s,
   * load balancers' 60 s), so the client is always the side that closes one (keep-alive.ts).
   */
  keepAliveTimeoutMs: number;
  /** The Retry-After of the 503s a refusing disk causes: the probe notices a healed disk within a second. */
  storageRetryAfterSeconds: number;
  /** How often the deploy-timeout timer looks: a tenth of the timeout, at most every 10 s, at least every 100 ms. */
  healthCheckIntervalMs: number;
}

const RESERVATION_TTL_DEFAULT_SECONDS = 3_600;
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
const STORAGE_RETRY_AFTER_SECONDS = 5;

/**
 * Variables earlier versions read. Setting one now is a mistake worth stopping for: the
 * operator expects an effect the ledger no longer gives.
 */
const RETIRED: Readonly<Record<string, string>> = {
  LEDGER_RESERVATION_TTL_SECONDS: 'a reservation asked for without ttlSeconds holds for an hour (at most LEDGER_RESERVATION_TTL_MAX_SECONDS)',
  LEDGER_RATE_LIMIT_BURST: 'the burst is twice LEDGER_RATE_LIMIT_PER_SECOND',
  LEDGER_AUTH_FAILURE_BURST: 'the burst is twenty times LEDGER_AUTH_FAILURE_RATE_PER_SECOND',
  LEDGER_KEEP_ALIVE_TIMEOUT_MS: "idle connections are kept 65 s, past clients' and load balancers' own idle timeouts",
  LEDGER_STORAGE_RETRY_AFTER_SECONDS: 'a refusing disk answers Retry-After: 5',
  LEDGER_STORAGE_PROBE_INTERVAL_MS: 'a refusing disk is tried again every second',
  LEDGER_HEALTH_CHECK_INTERVAL_MS: 'deploy timeouts are looked for every tenth of LEDGER_DEPLOY_TIMEOUT_SECONDS, at most every 10 s',
  LEDGER_SQLITE_POLL_MS: "other processes' appends are looked for every 100 ms",
  LEDGER_READ_MODEL_WAL_CHECKPOINT_PAGES: "the read-model file's WAL is copied back every 1,000 pages",
  LEDGER_LOG_BATCH_MS: 'request log lines are held up to 20 ms to share a write',
  LEDGER_AUDIT_FOLD_INTERVAL_MS: 'every audit answer hurries the audit index to what it must reflect; in the background it folds every 100 ms',
  LEDGER_AUDIT_INDEX_THREAD: 'on the embedded store the audit index always folds on a thread of its own',
  LEDGER_AUDIT_THREAD_NICE: 'the audit index thread runs 10 nice steps below the rest of the ledger',
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): LedgerConfig => {
  const retired = Object.keys(RETIRED).find((name) => env[name] !== undefined && env[name] !== '');
  if (retired) throw new ConfigError(`${retired} is no longer read: ${RETIRED[retired]}`);
  const read = Object.fromEntries(Object.entries(LEDGER_SETTINGS).map(([key, setting]) => [key, setting.read(env)])) as Read<typeof LEDGER_SETTINGS>;
  if (read.store === 'eventstoredb' && !read.esdbUrl) throw new ConfigError('LEDGER_STORE=eventstoredb needs LEDGER_ESDB_URL (esdb://host:2113?tls=false)');
  return {
    ...read,
    reservationTtlDefaultSeconds: Math.min(RESERVATION_TTL_DEFAULT_SECONDS, read.reservationTtlMaxSeconds),
    rateLimitBurst: 2 * read.rateLimitPerSecond,
    authFailureBurst: 20 * read.authFailureRatePerSecond,
    keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
    storageRetryAfterSeconds: STORAGE_RETRY_AFTER_SECONDS,
    healthCheckIntervalMs: read.testHealthCheckIntervalMs ?? Math.min(10_000, Math.max(100, read.deployTimeoutSeconds * 100)),
  };
};
