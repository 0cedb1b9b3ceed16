import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteReadOnlyEventStore } from '@ledger/event-store';
import { openReadModelDatabase, rebuildReadModels } from '@ledger/projections';
import { generateLog } from '../../../apps/ledger-cli/src/generate/generate-log';

/** Events in the bench's log: LEDGER_BENCH_EVENTS, else one million. */
export const benchEvents = (): number => Number(process.env.LEDGER_BENCH_EVENTS ?? 1_000_000);

/**
 * A data directory holding a generated log of `events` events (seed 1), made once and
 * kept in the temp directory for later runs: generating a million events takes minutes.
 */
export const generatedLog = async (events: number, log: (message: string) => void): Promise<{ dataDir: string; eventFile: string }> => {
  const dataDir = join(tmpdir(), `ledger-bench-log-${events}-seed-1`);
  const eventFile = join(dataDir, 'events.sqlite');
  if (existsSync(eventFile)) {
    const store = SqliteReadOnlyEventStore.open({ file: eventFile });
    const head = await store.headPosition();
    await store.close();
    if (head === events) return { dataDir, eventFile };
  }
  log(`generating a log of ${events} events into ${dataDir} (once; later runs reuse it)`);
  const building = `${dataDir}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const result = await generateLog({ file: join(building, 'events.sqlite'), events, seed: 1 });
  log(`generated ${result.events} events in ${result.seconds.toFixed(1)} s`);
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(building, dataDir);
  return { dataDir, eventFile };
};

/** Snapshot spacing of the generated ledger's read models (the ledger's default). */
export const GENERATED_SNAPSHOT_EVERY = 10_000;

/**
 * A digest of the code that folds the log into read models: every compiled library file.
 * Read models built by other code may hold another shape (a checkpoint saved whole, an
 * older table version), which a ledger started on them converts first: a measurement of
 * this code would then include work this code never does.
 */
const libraryCodeDigest = (): string => {
  const root = join(__dirname, '../../../libs');
  const files = (readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith('.js') && !file.endsWith('.spec.js')).sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(join(root, file)));
  return hash.digest('hex');
};

/**
 * The generated log with its read models built beside it (as `ledger-cli rebuild` would),
 * so a ledger started on the directory is caught up at once. They are built once per
 * version of the code (libraryCodeDigest, kept beside them) and reused by later runs.
 */
export const generatedLedger = async (events: number, log: (message: string) => void): Promise<{ dataDir: string; eventFile: string }> => {
  const generated = await generatedLog(events, log);
  const readModels = join(generated.dataDir, 'read-models.sqlite');
  const builtBy = join(generated.dataDir, 'read-models.built-by');
  const digest = libraryCodeDigest();
  const current = existsSync(readModels) && existsSync(builtBy) && readFileSync(builtBy, 'utf8') === digest;
  if (!current) {
    log(
      `  building the read models (ledger-cli rebuild) so the ledger starts caught up: ${existsSync(readModels) ? 'the ones there were built by other code' : 'none yet'}`,
    );
    for (const file of [readModels, `${readModels}-wal`, `${readModels}-shm`, builtBy]) rmSync(file, { force: true });
    const store = SqliteReadOnlyEventStore.open({ file: generated.eventFile });
    const db = openReadModelDatabase(readModels, { mode: 'bulk' });
    await rebuildReadModels({ store, db, snapshotEvery: GENERATED_SNAPSHOT_EVERY });
    db.close();
    await store.close();
    writeFileSync(builtBy, digest);
  }
  return generated;
};
