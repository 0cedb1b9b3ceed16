import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '../envelope';
import { isConcurrencyError } from '../concurrency-error';
import { LogFollower } from '../log-follower';
import { DroppingSubscriptionsStore } from '../testing/dropping-subscriptions.store';
import type { CurrentSubject } from './contract-subject';
import { freshStream, idsOf, newEvent, newEvents } from './contract-fixtures';

/**
 * What a real EventStoreDB server answers differently from a model (issue 12): points in
 * the log named by any number or by a time, retries at exact revisions, and subscriptions
 * that drop and resume. On EventStoreDB, a position sent that is not an event's own makes
 * the server fail the read, so these cases fail there if any computed position leaks out.
 */
export const describePositionsAndResumeContract = (current: CurrentSubject): void => {
  describe('points in the log', () => {
    it('eventAtOrAfter finds the event for any number, between and past events', async () => {
      const { store } = current();
      const stream = freshStream('at-or-after');
      await store.appendToStream(stream, newEvents(3), 'no_stream');
      const [first, second, third] = await store.readStream(stream);
      assert.equal((await store.eventAtOrAfter(first.position))?.id, first.id);
      // One past an event's own position: on EventStoreDB, inside its log record.
      const next = await store.eventAtOrAfter(first.position + 1);
      assert.ok(next !== null && next.position > first.position && next.position <= second.position);
      const after = await store.eventAtOrAfter(third.position + 1);
      assert.ok(after === null || after.position > third.position);
    });

    it('positionAtTime names the last event recorded by then, 0 before the first', async () => {
      const { store } = current();
      const stream = freshStream('at-time');
      await store.appendToStream(stream, newEvents(2), 'no_stream');
      const [, second] = await store.readStream(stream);
      const position = await store.positionAtTime(new Date(second.recordedAt));
      assert.ok(position >= second.position, `${position} < ${second.position}`);
      const there = await store.eventAtOrAfter(position);
      assert.ok(there !== null && there.position === position && Date.parse(there.recordedAt) <= Date.parse(second.recordedAt));
      assert.equal(await store.positionAtTime(new Date('2000-01-01T00:00:00Z')), 0);
    });
  });

  describe('retries with reused ids', () => {
    it('a retry at the exact revision it was first sent with is a no-op returning the original result', async () => {
      const { store } = current();
      const stream = freshStream('retry-exact');
      const first = await store.appendToStream(stream, [newEvent()], 'no_stream');
      const events = newEvents(2);
      const original = await store.appendToStream(stream, events, first.nextExpectedRevision);
      assert.deepEqual(await store.appendToStream(stream, events, first.nextExpectedRevision), original);
      assert.equal((await store.readStream(stream)).length, 3);
    });

    it('check-then-append at the exact revision keeps one copy of an id when retries race', async () => {
      const { store } = current();
      const stream = freshStream('check-then-append');
      const event = newEvent();
      const recordOnce = async (): Promise<void> => {
        for (;;) {
          const stored = await store.readStream(stream);
          if (stored.some((recorded) => recorded.id === event.id)) return;
          try {
            await store.appendToStream(stream, [event], stored.length === 0 ? 'no_stream' : stored.length - 1);
            return;
          } catch (error) {
            if (!isConcurrencyError(error)) throw error;
          }
        }
      };
      await Promise.all([recordOnce(), recordOnce(), recordOnce()]);
      await recordOnce();
      assert.deepEqual(idsOf(await store.readStream(stream)), [event.id]);
    });
  });

  describe('subscriptions that drop', () => {
    it('a closed subscription resumed from the last position delivered gives exactly the rest', async () => {
      const { store } = current();
      const stream = freshStream('resume');
      const head = await store.headPosition();
      await store.appendToStream(stream, newEvents(4), 'no_stream');
      const own = (events: RecordedEvent[]) => events.filter((event) => event.stream === stream);
      const firstPart: RecordedEvent[] = [];
      for await (const event of store.subscribeToAll({ fromPosition: head })) {
        if (event.stream === stream) firstPart.push(event);
        if (firstPart.length === 2) break;
      }
      const rest: RecordedEvent[] = [];
      for await (const event of store.subscribeToAll({ fromPosition: firstPart[1].position })) {
        if (event.stream === stream) rest.push(event);
        if (rest.length === 2) break;
      }
      assert.deepEqual(idsOf([...firstPart, ...rest]), idsOf(own(await store.readStream(stream))));
    });

    it('a LogFollower behind randomly dropped subscriptions delivers every event once, in order', async () => {
      const { store } = current();
      const stream = freshStream('follower');
      const head = await store.headPosition();
      const dropping = new DroppingSubscriptionsStore(store, { seed: 12, maxEvents: 2 });
      const seen: string[] = [];
      let checkpoint = head;
      let done!: () => void;
      const allSeen = new Promise<void>((resolve) => (done = resolve));
      const follower = new LogFollower(dropping, {
        subscriber: 'contract',
        checkpoint: () => checkpoint,
        handle: (event) => {
          checkpoint = event.position;
          if (event.stream !== stream) return;
          seen.push(event.id);
          if (seen.length === 6) done();
        },
        initialDelayMs: 1,
        maxDelayMs: 20,
      });
      follower.start();
      for (let i = 0; i < 3; i++) await store.appendToStream(stream, newEvents(2), i === 0 ? 'no_stream' : i * 2 - 1);
      await allSeen;
      await follower.stop();
      assert.deepEqual(seen, idsOf(await store.readStream(stream)));
      assert.ok(follower.restarts > 0);
    });
  });
};
