import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '../envelope';
import type { AllSubscription } from '../event-store.port';
import type { CurrentSubject } from './contract-subject';
import { assertStrictlyIncreasing, eventually, freshStream, idsOf, newEvents, within } from './contract-fixtures';

/** A running `for await` over a subscription, recording what it delivered. */
const consume = (subscription: AllSubscription, streams: ReadonlySet<string>) => {
  const positions: number[] = [];
  const own: RecordedEvent[] = [];
  const finished = (async () => {
    for await (const event of subscription) {
      positions.push(event.position);
      if (streams.has(event.stream)) own.push(event);
    }
  })();
  return { positions, own, finished };
};

/** Catch-up then live delivery over the global log, and closing. */
export const describeSubscriptionContract = (current: CurrentSubject): void => {
  describe('subscribeToAll', () => {
    it('catches up from a position, then delivers later appends live (also from another handle), without gaps or duplicates', async () => {
      const subject = current();
      const { store } = subject;
      const other = await subject.openAnother();
      const mine = freshStream('sub-mine');
      const theirs = freshStream('sub-theirs');
      const start = await store.headPosition();
      const history = newEvents(3);
      await store.appendToStream(mine, history, 'no_stream');

      const subscription = store.subscribeToAll({ fromPosition: start });
      const delivered = consume(subscription, new Set([mine, theirs]));
      try {
        await eventually(() => delivered.own.length === 3, 'the 3 catch-up events');
        assert.deepEqual(idsOf(delivered.own), idsOf(history));

        const liveMine = newEvents(2);
        await store.appendToStream(mine, liveMine, 2);
        await eventually(() => delivered.own.length === 5, 'live events appended through this handle');

        const liveTheirs = newEvents(2);
        await other.appendToStream(theirs, liveTheirs, 'no_stream');
        await eventually(() => delivered.own.length === 7, 'live events appended through the other handle');

        const burstMine = newEvents(10).map((event) => [event]);
        const burstTheirs = newEvents(10).map((event) => [event]);
        await Promise.all([
          ...burstMine.map((events) => store.appendToStream(mine, events, 'any')),
          ...burstTheirs.map((events) => other.appendToStream(theirs, events, 'any')),
        ]);
        await eventually(() => delivered.own.length === 27, 'a burst of concurrent appends through both handles');

        const logged = [...(await store.readStream(mine)), ...(await store.readStream(theirs))].sort((a, b) => a.position - b.position);
        assert.deepEqual(delivered.own, logged, 'delivered exactly the logged events, in global order');
        assertStrictlyIncreasing(delivered.positions, 'subscription');
        assert.ok(delivered.positions.every((position) => position > start));
      } finally {
        await subscription.close();
        await other.close();
      }
      await within(delivered.finished, 2000, 'the for-await loop to end after close()');
    });

    it('starts strictly after fromPosition', async () => {
      const { store } = current();
      const stream = freshStream('sub-exclusive');
      await store.appendToStream(stream, newEvents(3), 'no_stream');
      const [, second, third] = await store.readStream(stream);
      const subscription = store.subscribeToAll({ fromPosition: second.position });
      const delivered = consume(subscription, new Set([stream]));
      try {
        await eventually(() => delivered.own.length >= 1, 'the event after fromPosition');
        assert.deepEqual(idsOf(delivered.own), [third.id]);
      } finally {
        await subscription.close();
      }
      await within(delivered.finished, 2000, 'the loop to end');
    });

    it('close() promptly ends a loop that is waiting for new events', async () => {
      const { store } = current();
      const subscription = store.subscribeToAll({ fromPosition: await store.headPosition() });
      const delivered = consume(subscription, new Set());
      await new Promise((resolve) => setTimeout(resolve, 50));
      const closedAt = performance.now();
      await subscription.close();
      await within(delivered.finished, 1000, 'the loop to end after close()');
      assert.ok(performance.now() - closedAt < 1000);
    });

    it('ends when the consumer breaks out of the loop', async () => {
      const { store } = current();
      const stream = freshStream('sub-break');
      const start = await store.headPosition();
      await store.appendToStream(stream, newEvents(3), 'no_stream');
      const subscription = store.subscribeToAll({ fromPosition: start });
      const seen: string[] = [];
      await within(
        (async () => {
          for await (const event of subscription) {
            if (event.stream !== stream) continue;
            seen.push(event.id);
            if (seen.length === 2) break;
          }
        })(),
        5000,
        'two events then break',
      );
      assert.equal(seen.length, 2);
      await subscription.close();
    });
  });
};
