import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EventStoreDbEventStore, SqliteEventStore, type EventStore } from '@ledger/event-store';
import type { LedgerConfig } from '../config/ledger-config';
import type { Clock } from './clock';

export const eventStoreFile = (config: Pick<LedgerConfig, 'dataDir'>) => join(config.dataDir, 'events.sqlite');
export const readModelFile = (config: Pick<LedgerConfig, 'readModelDir'>) => join(config.readModelDir, 'read-models.sqlite');

/**
 * Crash tests only (test/mid-commit-kill.e2e.spec.ts): the writer thread pauses for good
 * inside this write transaction, before COMMIT, so the test can kill the process there.
 * Not configuration, so not in the README's table.
 */
const testPauseInCommit = (): number | null => {
  const value = process.env.LEDGER_TEST_WRITER_PAUSE_IN_COMMIT;
  return value ? Number(value) : null;
};

/** The one place that chooses the store: a configuration switch, not a port. */
export const openEventStore = async (config: LedgerConfig, clock: Clock): Promise<EventStore> => {
  mkdirSync(config.dataDir, { recursive: true });
  mkdirSync(config.readModelDir, { recursive: true });
  if (config.store === 'eventstoredb') return EventStoreDbEventStore.connect(config.esdbUrl!);
  return SqliteEventStore.open({ file: eventStoreFile(config), synchronous: config.sqliteSynchronous, clock, testPauseInCommit: testPauseInCommit() });
};
