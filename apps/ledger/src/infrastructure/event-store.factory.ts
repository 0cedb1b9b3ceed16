import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EventStoreDbEventStore, SqliteEventStore, type EventStore } from '@ledger/event-store';
import type { LedgerConfig } from '../config/ledger-config';
import type { Clock } from './clock';

export const eventStoreFile = (config: Pick<LedgerConfig, 'dataDir'>) => join(config.dataDir, 'events.sqlite');
export const readModelFile = (config: Pick<LedgerConfig, 'readModelDir'>) => join(config.readModelDir, 'read-models.sqlite');

/** The one place that chooses the store: a configuration switch, not a port. */
export const openEventStore = async (config: LedgerConfig, clock: Clock): Promise<EventStore> => {
  mkdirSync(config.dataDir, { recursive: true });
  mkdirSync(config.readModelDir, { recursive: true });
  if (config.store === 'eventstoredb') return EventStoreDbEventStore.connect(config.esdbUrl!);
  return SqliteEventStore.open({ file: eventStoreFile(config), synchronous: config.sqliteSynchronous, clock, pollIntervalMs: config.sqlitePollMs });
};
