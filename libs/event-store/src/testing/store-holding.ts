import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewEvent, RecordedEvent } from '../envelope';
import { SqliteEventStore } from '../embedded/sqlite-event-store';

/** An embedded store in a temp file and how to close and remove it. */
export interface HeldLog {
  store: SqliteEventStore;
  done(): Promise<void>;
}

/**
 * A real embedded store holding exactly `events` (positions 1, 2, ... in order, as a test's
 * hand-made log numbers them), each at its own position and time: for a reader that reads
 * the log by the positions an index lists.
 */
export const storeHolding = async (events: readonly RecordedEvent[]): Promise<HeldLog> => {
  const directory = await mkdtemp(join(tmpdir(), 'ledger-held-log-'));
  let next = 0;
  const store = await SqliteEventStore.open({ file: join(directory, 'events.sqlite'), synchronous: 'NORMAL', clock: () => new Date(events[next].recordedAt) });
  const done = async () => {
    await store.close();
    await rm(directory, { recursive: true, force: true });
  };
  try {
    for (; next < events.length; next++) {
      const { id, type, stream, data, metadata, position } = events[next];
      const appended = await store.appendToStream(stream, [{ id, type, data, metadata } as NewEvent], 'any');
      if (appended.position !== position) throw new Error(`the log numbers event ${id} ${position}; the store put it at ${appended.position}`);
    }
  } catch (error) {
    await done();
    throw error;
  }
  return { store, done };
};
