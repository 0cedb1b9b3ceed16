import { ensurePrivateDirectory, eventStoreFile, SqliteEventStore, type EventStore } from '@ledger/event-store';
import pino from 'pino';
import { ensureReadModelsFrom, ForeignReadModelError, openReadModelDatabase, readModelFile } from '@ledger/projections';
import { ConfigError, type LedgerConfig } from '../config/ledger-config';
import type { Clock } from './clock';

/** The one place that chooses the store: a configuration switch, not a port. */
export const openEventStore = async (config: LedgerConfig, clock: Clock): Promise<EventStore> => {
  ensurePrivateDirectory(config.dataDir);
  ensurePrivateDirectory(config.readModelDir);
  const store =
    config.store === 'eventstoredb'
      ? await connectEventStoreDb(config)
      : await SqliteEventStore.open({
          file: eventStoreFile(config),
          synchronous: config.sqliteSynchronous,
          clock,
          testPauseInCommit: config.testWriterPauseInCommit,
          pollIntervalMs: config.sqlitePollMs,
        });
  await refuseForeignReadModels(config, store);
  return store;
};

/**
 * The EventStoreDB client (gRPC and its protocol buffers) is loaded only when it is the store:
 * on the embedded store it cost each start, and each of the ledger's worker threads, about
 * 80 ms of CPU for nothing.
 */
const connectEventStoreDb = async (config: LedgerConfig): Promise<EventStore> => {
  const { EventStoreDbEventStore } = await import('@ledger/event-store/eventstoredb');
  return EventStoreDbEventStore.connect(config.esdbUrl!, { onForeignEvent: foreignEventWarning(config) });
};

/** Before any read model resumes: the read-model file must have been built from this store. */
const refuseForeignReadModels = async (config: LedgerConfig, store: EventStore): Promise<void> => {
  const file = readModelFile(config);
  const db = openReadModelDatabase(file);
  try {
    await ensureReadModelsFrom(db, store, file);
  } catch (error) {
    await store.close();
    throw error instanceof ForeignReadModelError ? new ConfigError(error.message) : error;
  } finally {
    db.close();
  }
};

/**
 * Events other writers put in EventStoreDB's $all are skipped (counted in
 * ledger_store_foreign_events_skipped_total); the 1st, 10th, 100th... is logged as a warning,
 * so a busy foreign writer is seen without flooding the log.
 */
const foreignEventWarning = (config: LedgerConfig) => {
  const logger = pino({ level: config.logLevel }).child({ context: 'EventStoreDbEventStore' });
  let skipped = 0;
  return (event: { id: string; stream: string; type: string; reason: string }) => {
    skipped += 1;
    if (Number.isInteger(Math.log10(skipped))) logger.warn({ ...event, skipped }, 'skipped an event in $all that the ledger did not write');
  };
};
