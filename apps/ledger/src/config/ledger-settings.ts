import { join } from 'node:path';
import { integer, onOff, oneOf, optionalInteger, optionalText, path, text } from './setting';

export type StoreKind = 'embedded' | 'eventstoredb';
export type SqliteSynchronous = 'FULL' | 'NORMAL' | 'EXTRA';

const dataDir = (env: NodeJS.ProcessEnv): string => env.LEDGER_DATA_DIR || './data';

const NETWORK = 'Network';
const STORAGE = 'Storage';
const READ_MODELS = 'Read models and queries';
const ACCESS = 'Access';
const NODES = 'Nodes and reservations';
const LOGS = 'Logs';
const TESTS = 'Tests';

/**
 * Every environment variable the ledger reads. docs/configuration.md is generated from the
 * operator's ones (`npm run docs:config`), and a spec fails when the page drifts from here.
 */
export const LEDGER_SETTINGS = {
  port: integer('PORT', 3000, 0, 65535, { audience: 'operator', group: NETWORK, doc: 'The HTTP port. `0` picks a free one (logged as `ledger listening`).' }),
  host: text('HOST', '127.0.0.1', { audience: 'operator', group: NETWORK, doc: 'The interface to listen on: `0.0.0.0` to be reached from other machines.' }),
  maxBodyBytes: integer('LEDGER_MAX_BODY_BYTES', 1_048_576, 1_024, 64 * 1_048_576, {
    audience: 'operator',
    group: NETWORK,
    doc: 'Larger request bodies (measured inflated) get `413`. Raise it if an importer posts bigger lease batches.',
  }),
  dataDir: path('LEDGER_DATA_DIR', './data', dataDir, {
    audience: 'operator',
    group: STORAGE,
    doc: 'Where the embedded store keeps `events.sqlite` (and, by default, the read models and keys). Put it on the durable volume.',
  }),
  readModelDir: path('LEDGER_READ_MODEL_DIR', '$LEDGER_DATA_DIR', dataDir, {
    audience: 'operator',
    group: STORAGE,
    doc: 'Where this instance keeps `read-models.sqlite`. Each instance sharing a store needs its own; a local disk is enough (it can be rebuilt).',
  }),
  store: oneOf<StoreKind>('LEDGER_STORE', 'embedded', ['embedded', 'eventstoredb'], {
    audience: 'operator',
    group: STORAGE,
    doc: '`embedded` (one SQLite file) or `eventstoredb` (see [eventstoredb.md](eventstoredb.md)).',
  }),
  esdbUrl: optionalText('LEDGER_ESDB_URL', {
    audience: 'operator',
    group: STORAGE,
    doc: 'The EventStoreDB connection string, required with `LEDGER_STORE=eventstoredb`.',
  }),
  sqliteSynchronous: oneOf<SqliteSynchronous>('LEDGER_SQLITE_SYNCHRONOUS', 'FULL', ['FULL', 'NORMAL', 'EXTRA'], {
    audience: 'operator',
    group: STORAGE,
    doc: '`FULL`: an answered command survives a power loss; `NORMAL`: a process crash only (faster on slow disks); `EXTRA`: FULL and directory syncs.',
  }),
  readWaitMs: integer('LEDGER_READ_WAIT_MS', 5_000, 0, 60_000, {
    audience: 'operator',
    group: READ_MODELS,
    doc: 'How long a query waits for the read models to reflect `?minPosition=` and the commands answered before it; then `503` (a plain node or lease read answers as it stands).',
  }),
  checkpointIntervalMs: integer('LEDGER_CHECKPOINT_INTERVAL_MS', 5_000, 10, 3_600_000, {
    audience: 'operator',
    group: READ_MODELS,
    doc: 'How often the read models are checkpointed while events flow: after a crash they re-fold the events since the last one.',
  }),
  snapshotEvery: integer('LEDGER_SNAPSHOT_EVERY', 10_000, 0, 100_000_000, {
    audience: 'operator',
    group: READ_MODELS,
    doc: 'Events between time-travel snapshots: fewer makes `GET /v1/state?at=` faster and the read-model file bigger (`0`: none).',
  }),
  readyMaxLagEvents: integer('LEDGER_READY_MAX_LAG_EVENTS', 1_000, 0, 1_000_000_000, {
    audience: 'operator',
    group: READ_MODELS,
    doc: '`/healthz/ready` answers `503` while a follower of the log trails its head by more events than this.',
  }),
  leaseCascade: onOff('LEDGER_LEASE_CASCADE', 'on', {
    audience: 'operator',
    group: READ_MODELS,
    doc: '`off`: this instance does not release the leases of ended owners. With several instances on one store, one running it is enough.',
  }),
  keysFile: path('LEDGER_KEYS_FILE', '$LEDGER_DATA_DIR/keys.json', (env) => join(dataDir(env), 'keys.json'), {
    audience: 'operator',
    group: ACCESS,
    doc: 'The API keys (hashes only), created with an operator key on first start; `ledger-cli keys` reads the same variable.',
  }),
  rateLimitPerSecond: integer('LEDGER_RATE_LIMIT_PER_SECOND', 1_000, 1, 1_000_000, {
    audience: 'operator',
    group: ACCESS,
    doc: 'Sustained requests per second per key (a burst of twice that is allowed); beyond it `429` with `Retry-After`.',
  }),
  authFailureRatePerSecond: integer('LEDGER_AUTH_FAILURE_RATE_PER_SECOND', 10, 1, 1_000_000, {
    audience: 'operator',
    group: ACCESS,
    doc: 'Requests per second per client address with no valid key (burst: 20 times that). Raise it when many clients share one address.',
  }),
  reservationTtlMaxSeconds: integer('LEDGER_RESERVATION_TTL_MAX_SECONDS', 7 * 86_400, 1, 365 * 86_400, {
    audience: 'operator',
    group: NODES,
    doc: 'The longest reservation a caller may ask for (`ttlSeconds`); one that gives none holds for an hour, or this if shorter.',
  }),
  powerFailuresForFault: integer('LEDGER_POWER_FAILURES_FOR_FAULT', 3, 1, 1_000, {
    audience: 'operator',
    group: NODES,
    doc: 'Failed power syncs in a row that fault a node (`power_failure`); one good sync clears it.',
  }),
  deployTimeoutSeconds: integer('LEDGER_DEPLOY_TIMEOUT_SECONDS', 1_800, 1, 30 * 86_400, {
    audience: 'operator',
    group: NODES,
    doc: 'A deployment not finished after this long faults its node (`deploy_timeout`). Match the provider’s own deploy timeout.',
  }),
  logLevel: oneOf('LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    audience: 'operator',
    group: LOGS,
    doc: '`warn` keeps what needs attention and drops the `request completed` line every request writes at `info`.',
  }),
  // 20 ms: at one client the ledger's p50 fell from 1.41 to 1.32 of the baseline's with the
  // lines held to share a write (bench/results/2026-12-04-log-batch-interleaved.md).
  logBatchMs: integer('LEDGER_TEST_LOG_BATCH_MS', 20, 0, 1_000, {
    audience: 'test',
    group: TESTS,
    doc: "How long answered requests' log lines are held to share one write(2): the request-log test checks none is lost at 20 and 1000.",
  }),
  readModelWalCheckpointPages: integer('LEDGER_TEST_READ_MODEL_WAL_CHECKPOINT_PAGES', 1_000, 10, 1_000_000, {
    audience: 'test',
    group: TESTS,
    doc: "Pages the read-model file's WAL gathers before its checkpoint thread copies them back: a test makes it small to see copies happen.",
  }),
  sqlitePollMs: integer('LEDGER_TEST_SQLITE_POLL_MS', 100, 10, 3_600_000, {
    audience: 'test',
    group: TESTS,
    doc: 'How often subscriptions look for events other processes appended: a test makes it an hour to hold a follower behind.',
  }),
  storageProbeIntervalMs: integer('LEDGER_TEST_STORAGE_PROBE_INTERVAL_MS', 1_000, 10, 600_000, {
    audience: 'test',
    group: TESTS,
    doc: 'While the disk refuses writes, how often a probe file tries it again: the storage-fault test makes it short.',
  }),
  testHealthCheckIntervalMs: optionalInteger('LEDGER_TEST_HEALTH_CHECK_INTERVAL_MS', 10, 3_600_000, {
    audience: 'test',
    group: TESTS,
    doc: 'How often deploy timeouts are looked for: the bench and the replay tests make it an hour, so nothing is appended to a generated log.',
  }),
  testWriterPauseInCommit: optionalInteger('LEDGER_TEST_WRITER_PAUSE_IN_COMMIT', 1, 1_000_000_000, {
    audience: 'test',
    group: TESTS,
    doc: "The store's writer stops for good inside its N-th write transaction, before `COMMIT`, so the crash test can kill it mid-commit.",
  }),
} as const;
