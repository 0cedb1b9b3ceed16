import { after, before } from 'node:test';
import { join } from 'node:path';
import { SqliteEventStore, type RecordedEvent } from '@ledger/event-store';
import { LedgerProcess, type StartOptions } from '@ledger/testing';

/**
 * Starts a real ledger before the enclosing suite and stops it (removing its data)
 * after. Returns a getter, since the process exists only once `before` has run.
 */
export const useLedger = (options?: StartOptions): (() => LedgerProcess) => {
  let ledger: LedgerProcess | undefined;
  before(async () => {
    ledger = await LedgerProcess.start(options);
  });
  after(async () => {
    await ledger?.stop();
    ledger?.removeData();
  });
  return () => {
    if (!ledger) throw new Error('the ledger is not started yet: call the getter inside a test');
    return ledger;
  };
};

/** Reads straight from the ledger's event file through a second handle (safe while it runs). */
export const withEventFile = async <T>(dataDir: string, read: (store: SqliteEventStore) => Promise<T>): Promise<T> => {
  const store = await SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  try {
    return await read(store);
  } finally {
    await store.close();
  }
};

export const streamEvents = (dataDir: string, stream: string): Promise<RecordedEvent[]> => withEventFile(dataDir, (store) => store.readStream(stream));
