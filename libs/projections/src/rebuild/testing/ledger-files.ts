import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { SqliteEventStore } from '@ledger/event-store';
import { openReadModelDatabase } from '../../runtime/read-model-database';

/** A store and a read-model file in a fresh temp folder, as one ledger process has them. */
export interface LedgerFiles {
  dir: string;
  store: SqliteEventStore;
  db: Database.Database;
  /** Closes both and removes the folder. */
  close(): Promise<void>;
}

/**
 * For the property tests over generated histories: the store's clock moves one second per
 * event from 2026-01-01, so times are distinct and positions and times can be checked
 * against each other; synchronous=NORMAL and a 5 ms poll keep a run short.
 */
export const openLedgerFiles = async (prefix: string): Promise<LedgerFiles> => {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  let second = 0;
  const store = await SqliteEventStore.open({
    file: join(dir, 'events.sqlite'),
    synchronous: 'NORMAL',
    pollIntervalMs: 5,
    clock: () => new Date(Date.UTC(2026, 0, 1) + ++second * 1000),
  });
  const db = openReadModelDatabase(join(dir, 'read-models.sqlite'));
  return {
    dir,
    store,
    db,
    close: async () => {
      db.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
};
