import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventMetadata, NewEvent } from '../envelope';
import type { CurrentSubject } from './contract-subject';
import { assertStrictlyIncreasing, contractMetadata, freshStream, idsOf, newEvent, newEvents, readAllOf } from './contract-fixtures';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const ENVELOPE_FIELDS = ['data', 'id', 'metadata', 'position', 'recordedAt', 'revision', 'stream', 'type'];

/** Reading a stream, the global log, and the head; the envelope survives the round trip. */
export const describeReadContract = (current: CurrentSubject): void => {
  describe('readStream', () => {
    it('returns the events in order with revisions 0..n-1', async () => {
      const { store } = current();
      const stream = freshStream('read');
      const first = newEvents(3);
      const second = newEvents(2);
      await store.appendToStream(stream, first, 'no_stream');
      await store.appendToStream(stream, second, 2);
      const stored = await store.readStream(stream);
      assert.deepEqual(idsOf(stored), idsOf([...first, ...second]));
      assert.deepEqual(
        stored.map((event) => event.revision),
        [0, 1, 2, 3, 4],
      );
      assert.ok(stored.every((event) => event.stream === stream));
      assertStrictlyIncreasing(
        stored.map((event) => event.position),
        'positions within a stream',
      );
    });

    it('starts at fromRevision, and past the end returns []', async () => {
      const { store } = current();
      const stream = freshStream('read-from');
      const events = newEvents(5);
      await store.appendToStream(stream, events, 'no_stream');
      assert.deepEqual(idsOf(await store.readStream(stream, { fromRevision: 0 })), idsOf(events));
      assert.deepEqual(idsOf(await store.readStream(stream, { fromRevision: 3 })), idsOf(events.slice(3)));
      assert.deepEqual(await store.readStream(stream, { fromRevision: 5 }), []);
    });

    it('returns [] for a stream that does not exist', async () => {
      const { store } = current();
      assert.deepEqual(await store.readStream(freshStream('missing')), []);
    });
  });

  describe('readAll', () => {
    it('returns events of all streams in global (append) order, positions strictly increasing', async () => {
      const { store } = current();
      const streams = [freshStream('all-a'), freshStream('all-b'), freshStream('all-c')];
      const head = await store.headPosition();
      const appended: NewEvent[] = [];
      for (let round = 0; round < 3; round++) {
        for (const stream of streams) {
          const events = newEvents(round + 1);
          await store.appendToStream(stream, events, round === 0 ? 'no_stream' : 'stream_exists');
          appended.push(...events);
        }
      }
      const logged = await readAllOf(store, head, new Set(streams));
      assert.deepEqual(idsOf(logged), idsOf(appended));
      assertStrictlyIncreasing(
        logged.map((event) => event.position),
        'readAll',
      );
      assert.ok(logged.every((event) => event.position > head));
    });

    it('reads strictly after fromPosition', async () => {
      const { store } = current();
      const stream = freshStream('all-exclusive');
      await store.appendToStream(stream, newEvents(3), 'no_stream');
      const [first, second, third] = await store.readStream(stream);
      const after = await readAllOf(store, first.position, new Set([stream]));
      assert.deepEqual(idsOf(after), [second.id, third.id]);
      assert.deepEqual(idsOf(await readAllOf(store, third.position, new Set([stream]))), []);
    });

    it('pages with maxCount so that the pages cover every event exactly once', async () => {
      const { store } = current();
      const stream = freshStream('all-pages');
      const head = await store.headPosition();
      const events = newEvents(7);
      await store.appendToStream(stream, events, 'no_stream');
      const pages = [];
      let after = head;
      for (;;) {
        const page = await store.readAll({ fromPosition: after, maxCount: 2 });
        if (page.length === 0) break;
        assert.ok(page.length <= 2);
        pages.push(page);
        after = page[page.length - 1].position;
      }
      const own = pages.flat().filter((event) => event.stream === stream);
      assert.deepEqual(idsOf(own), idsOf(events));
      assertStrictlyIncreasing(
        pages.flat().map((event) => event.position),
        'paged readAll',
      );
    });

    it('with no options reads from the start, at most one page', async () => {
      const { store } = current();
      await store.appendToStream(freshStream('all-default'), [newEvent()], 'no_stream');
      const page = await store.readAll();
      assert.ok(page.length >= 1);
      assertStrictlyIncreasing(
        page.map((event) => event.position),
        'readAll()',
      );
      assert.ok(page[0].position > 0, 'positions start above 0');
    });
  });

  describe('headPosition', () => {
    it('is at least the position of the last acknowledged append, and never goes back', async () => {
      const { store } = current();
      const before = await store.headPosition();
      assert.ok(Number.isSafeInteger(before) && before >= 0);
      const result = await store.appendToStream(freshStream('head'), [newEvent()], 'no_stream');
      const after = await store.headPosition();
      assert.ok(after >= result.position && result.position > before);
    });
  });

  describe('the envelope', () => {
    it('round-trips id, type, stream, revision, position, recordedAt, data and every metadata field', async () => {
      const { store } = current();
      const stream = freshStream('envelope');
      const head = await store.headPosition();
      const startedAt = Date.now();
      const metadata: EventMetadata = {
        ...contractMetadata(),
        causationId: 'cause-7f3a',
        actor: 'operator:ada',
        requestId: 'req-42',
        schemaVersion: 3,
      };
      const data = {
        nodeId: 'node-ñ-日本-🚀',
        nested: { tags: ['a', 'b'], deeper: { n: -1.5, yes: true, none: null, empty: {} } },
        list: [1, 'two', { three: 3 }, []],
        quote: 'she said "hi"\n\ttab \\ backslash',
      };
      const event = { ...newEvent(data, 'NodeEnlisted'), metadata };
      const result = await store.appendToStream(stream, [event], 'no_stream');

      const [stored] = await store.readStream(stream);
      assert.deepEqual(Object.keys(stored).sort(), ENVELOPE_FIELDS);
      assert.equal(stored.id, event.id);
      assert.equal(stored.type, 'NodeEnlisted');
      assert.equal(stored.stream, stream);
      assert.equal(stored.revision, 0);
      assert.equal(stored.position, result.position);
      assert.deepEqual(stored.data, data);
      assert.deepEqual(stored.metadata, metadata);
      assert.match(stored.recordedAt, ISO_UTC);
      const recordedAt = Date.parse(stored.recordedAt);
      assert.ok(Math.abs(recordedAt - startedAt) < 60 * 60 * 1000, `recordedAt ${stored.recordedAt} is near now`);

      const [fromLog] = await readAllOf(store, head, new Set([stream]));
      assert.deepEqual(fromLog, stored);
    });
  });
};
