import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { RecordedEvent } from '../envelope';
import { ConcurrencyError } from '../concurrency-error';
import { SqliteEventStore } from './sqlite-event-store';
import { tempStoreFile } from './testing/temp-store-file';
import { testEvent } from './testing/test-events';
import { waitUntil } from './testing/wait-until';

/** One round of a generated history: appends submitted together (one group commit or several), some with a stale revision. */
type Round = { stream: number; events: number; stale: boolean }[];

const round: fc.Arbitrary<Round> = fc.array(fc.record({ stream: fc.nat(3), events: fc.integer({ min: 1, max: 3 }), stale: fc.boolean() }), {
  minLength: 1,
  maxLength: 6,
});

describe('embedded store: commits announced to subscriptions after their answers', () => {
  it('announceCommits() returns the newest acknowledged position, and a subscription then delivers every acknowledged event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(round, { minLength: 1, maxLength: 8 }), async (rounds) => {
        const temp = await tempStoreFile('announcements');
        // A poll far longer than the test: only the store's announcements (at the next commit's hand-off, within a
        // millisecond, or announceCommits()) wake the subscription.
        const store = await SqliteEventStore.open({ file: temp.file, pollIntervalMs: 3_600_000 });
        const subscription = store.subscribeToAll();
        const delivered: RecordedEvent[] = [];
        const consuming = (async () => {
          for await (const event of subscription) delivered.push(event);
        })();
        try {
          assert.equal(store.announceCommits(), 0, 'nothing acknowledged yet');
          let newest = 0;
          const acknowledged: number[] = [];
          for (const appends of rounds) {
            const results = await Promise.allSettled(
              appends.map(({ stream, events, stale }) =>
                store.appendToStream(
                  `s-${stream}`,
                  Array.from({ length: events }, () => testEvent({ stale })),
                  stale ? 1_000 : 'any',
                ),
              ),
            );
            for (const result of results) {
              if (result.status === 'fulfilled') {
                newest = Math.max(newest, result.value.position);
                acknowledged.push(result.value.position);
              } else assert.ok(result.reason instanceof ConcurrencyError, String(result.reason));
            }
            assert.equal(store.announceCommits(), newest, 'the newest acknowledged position');
            await waitUntil(() => (delivered.at(-1)?.position ?? 0) >= newest, `delivery up to ${newest}`);
          }
          const log = (await store.readAll({ maxCount: 10_000 })).map((event) => event.position);
          assert.deepEqual(
            delivered.map((event) => event.position),
            log,
            'the subscription delivered exactly the log, in order',
          );
          for (const position of acknowledged) assert.ok(log.includes(position), `acknowledged position ${position} is in the log`);
        } finally {
          await subscription.close();
          await consuming;
          await store.close();
          await temp.remove();
        }
      }),
      { numRuns: 25 },
    );
  });
});
