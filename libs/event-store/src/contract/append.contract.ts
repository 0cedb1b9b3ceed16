import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CurrentSubject } from './contract-subject';
import { assertConcurrencyError, freshStream, idsOf, newEvent, newEvents, readAllOf } from './contract-fixtures';

/** Appending with each kind of expected revision, and what a refusal leaves behind. */
export const describeAppendContract = (current: CurrentSubject): void => {
  describe('appendToStream with an expected revision', () => {
    it("creates a new stream with 'no_stream' and reports its last revision and position", async () => {
      const { store } = current();
      const stream = freshStream('new');
      const head = await store.headPosition();
      const result = await store.appendToStream(stream, newEvents(2), 'no_stream');
      assert.equal(result.nextExpectedRevision, 1);
      assert.ok(result.position > head, `position ${result.position} is after the head ${head}`);
      const stored = await store.readStream(stream);
      assert.equal(stored[1].position, result.position);
    });

    it("refuses 'no_stream' on an existing stream with a ConcurrencyError naming stream, expected and actual", async () => {
      const { store } = current();
      const stream = freshStream('exists');
      await store.appendToStream(stream, newEvents(3), 'no_stream');
      await assertConcurrencyError(store.appendToStream(stream, [newEvent()], 'no_stream'), {
        stream,
        expected: 'no_stream',
        actual: 2,
      });
      assert.equal((await store.readStream(stream)).length, 3);
    });

    it('accepts the exact current revision and moves it on', async () => {
      const { store } = current();
      const stream = freshStream('exact');
      const first = await store.appendToStream(stream, [newEvent()], 'no_stream');
      const second = await store.appendToStream(stream, newEvents(2), first.nextExpectedRevision);
      assert.equal(second.nextExpectedRevision, 2);
      assert.ok(second.position > first.position);
      const third = await store.appendToStream(stream, [newEvent()], second.nextExpectedRevision);
      assert.equal(third.nextExpectedRevision, 3);
    });

    it('refuses a stale or a future revision and writes nothing', async () => {
      const { store } = current();
      const stream = freshStream('wrong');
      const head = await store.headPosition();
      const created = newEvents(2);
      await store.appendToStream(stream, created, 'no_stream');
      for (const expected of [0, 2, 7]) {
        await assertConcurrencyError(store.appendToStream(stream, newEvents(2), expected), { stream, expected, actual: 1 });
      }
      assert.deepEqual(idsOf(await store.readStream(stream)), idsOf(created));
      assert.deepEqual(idsOf(await readAllOf(store, head, new Set([stream]))), idsOf(created));
    });

    it('refuses a numeric revision on a missing stream (actual no_stream) and creates nothing', async () => {
      const { store } = current();
      const stream = freshStream('wrong-missing');
      await assertConcurrencyError(store.appendToStream(stream, [newEvent()], 0), {
        stream,
        expected: 0,
        actual: 'no_stream',
      });
      assert.deepEqual(await store.readStream(stream), []);
    });

    it("accepts 'any' whether or not the stream exists", async () => {
      const { store } = current();
      const stream = freshStream('any');
      assert.equal((await store.appendToStream(stream, [newEvent()], 'any')).nextExpectedRevision, 0);
      assert.equal((await store.appendToStream(stream, newEvents(2), 'any')).nextExpectedRevision, 2);
      assert.equal((await store.readStream(stream)).length, 3);
    });

    it("refuses 'stream_exists' on a missing stream (actual 'no_stream', nothing created) and accepts it on an existing one", async () => {
      const { store } = current();
      const stream = freshStream('stream-exists');
      await assertConcurrencyError(store.appendToStream(stream, [newEvent()], 'stream_exists'), {
        stream,
        expected: 'stream_exists',
        actual: 'no_stream',
      });
      assert.deepEqual(await store.readStream(stream), []);
      await store.appendToStream(stream, [newEvent()], 'no_stream');
      const result = await store.appendToStream(stream, newEvents(2), 'stream_exists');
      assert.equal(result.nextExpectedRevision, 2);
    });

    it('writes all the events of an append or, when it conflicts, none of them', async () => {
      const { store } = current();
      const stream = freshStream('atomic');
      const head = await store.headPosition();
      const accepted = newEvents(3);
      await store.appendToStream(stream, accepted, 'no_stream');
      const refused = newEvents(3);
      await assertConcurrencyError(store.appendToStream(stream, refused, 0), { stream, expected: 0, actual: 2 });
      assert.deepEqual(idsOf(await store.readStream(stream)), idsOf(accepted));
      const logged = await readAllOf(store, head, new Set([stream]));
      assert.deepEqual(idsOf(logged), idsOf(accepted));
    });

    it('treats a retry with the same event ids as a no-op returning the original result, even after the stream moved on', async () => {
      const { store } = current();
      const stream = freshStream('retry');
      const head = await store.headPosition();
      const events = newEvents(2);
      const original = await store.appendToStream(stream, events, 'no_stream');
      assert.deepEqual(await store.appendToStream(stream, events, 'no_stream'), original);
      const later = newEvent();
      await store.appendToStream(stream, [later], original.nextExpectedRevision);
      assert.deepEqual(await store.appendToStream(stream, events, 'no_stream'), original);
      assert.deepEqual(idsOf(await store.readStream(stream)), [...idsOf(events), later.id]);
      assert.deepEqual(idsOf(await readAllOf(store, head, new Set([stream]))), [...idsOf(events), later.id]);
    });
  });
};
