import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { eventsAt } from './events-at';
import { SqliteEventStore } from './embedded/sqlite-event-store';
import { SqliteReadOnlyEventStore } from './embedded/sqlite-read-only-store';
import { tempStoreFile } from './embedded/testing/temp-store-file';
import { testEvents } from './embedded/testing/test-events';
import { DelegatingStore } from './testing/delegating.store';
import { ReturnedPositionsOnlyStore } from './testing/returned-positions-only.store';

describe('events read back by position (what an audit page lists)', () => {
  it('are the log’s own events at those positions, in the order asked, through every way of reading the log', async () => {
    const temp = await tempStoreFile('events-at');
    const store = await SqliteEventStore.open({ file: temp.file, synchronous: 'NORMAL' });
    const readOnly = SqliteReadOnlyEventStore.open({ file: temp.file });
    try {
      for (let stream = 0; stream < 40; stream++) await store.appendToStream(`s-${stream % 9}`, testEvents(1 + (stream % 4)), 'any');
      const log = await store.readAll({ maxCount: 1_000 });
      // One query on either embedded handle; without eventsAt (a delegating store), one read each,
      // only from positions the log returned (EventStoreDB's rule, ReturnedPositionsOnlyStore).
      const onlyReturned = new ReturnedPositionsOnlyStore(store);
      await onlyReturned.readAll({ maxCount: 1_000 });
      const ways = { store, readOnly, 'one read each': new DelegatingStore(onlyReturned) };
      await fc.assert(
        fc.asyncProperty(fc.shuffledSubarray(log), async (picked) => {
          const positions = picked.map((event) => event.position);
          for (const [way, source] of Object.entries(ways)) assert.deepEqual(await eventsAt(source, positions), picked, way);
        }),
        { numRuns: 60 },
      );
      const head = log[log.length - 1].position;
      for (const source of Object.values(ways)) {
        await assert.rejects(eventsAt(source, [1, head + 1]), new RegExp(`no event at position ${head + 1}`));
      }
    } finally {
      await readOnly.close();
      await store.close();
      await temp.remove();
    }
  });
});
