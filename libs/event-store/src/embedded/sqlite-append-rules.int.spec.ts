import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NewEvent } from '../envelope';
import { EventIdConflictError } from './event-id-conflict-error';
import { SqliteEventStore } from './sqlite-event-store';
import { type TempStoreFile, tempStoreFile } from './testing/temp-store-file';
import { testEvent, testEvents } from './testing/test-events';

describe('embedded store append rules', () => {
  let temp: TempStoreFile;
  let store: SqliteEventStore;
  before(async () => {
    temp = await tempStoreFile('append-rules');
    store = await SqliteEventStore.open({ file: temp.file });
  });
  after(async () => {
    await store.close();
    await temp.remove();
  });

  describe('reused event ids that are not an exact retry are refused and write nothing', () => {
    const assertRefused = async (stream: string, events: NewEvent[], expected: RegExp): Promise<void> => {
      const head = await store.headPosition();
      await assert.rejects(store.appendToStream(stream, events, 'any'), (error: unknown) => {
        assert.ok(error instanceof EventIdConflictError, String(error));
        assert.match(error.message, expected);
        return true;
      });
      assert.equal(await store.headPosition(), head);
    };

    it('when the first id is stored in another stream', async () => {
      const [stored] = testEvents(1);
      await store.appendToStream('node-owner', [stored], 'no_stream');
      await assertRefused('node-thief', [stored], /already stored in another stream \(node-owner\)/);
      assert.deepEqual(await store.readStream('node-thief'), []);
    });

    it('when only some of the ids are stored', async () => {
      const stored = testEvents(2);
      await store.appendToStream('node-partial', stored, 'no_stream');
      await assertRefused('node-partial', [testEvent(), stored[1]], /already stored .* but the first event of the append is new/);
      await assertRefused('node-partial', [...stored, testEvent()], /does not follow/);
    });

    it('when the stored ids are in another order', async () => {
      const stored = testEvents(2);
      await store.appendToStream('node-reordered', stored, 'no_stream');
      await assertRefused('node-reordered', [stored[1], stored[0]], /does not follow/);
    });

    it('a retry of the first events of an earlier append returns their own result', async () => {
      const stored = testEvents(3);
      const original = await store.appendToStream('node-prefix', stored, 'no_stream');
      const prefix = await store.appendToStream('node-prefix', stored.slice(0, 2), 'no_stream');
      assert.equal(prefix.nextExpectedRevision, 1);
      assert.ok(prefix.position < original.position);
      assert.equal((await store.readStream('node-prefix')).length, 3);
    });
  });

  describe('bad arguments fail alone with a TypeError before reaching the log', () => {
    const bigint = { ...testEvent(), data: { size: 10n } };
    const cases: [string, () => Promise<unknown>][] = [
      ['an empty event list', () => store.appendToStream('node-bad', [], 'any')],
      ['an empty event id', () => store.appendToStream('node-bad', [{ ...testEvent(), id: '' }], 'any')],
      [
        'the same id twice in one append',
        () => {
          const event = testEvent();
          return store.appendToStream('node-bad', [event, event], 'any');
        },
      ],
      ['an empty type', () => store.appendToStream('node-bad', [{ ...testEvent(), type: '' }], 'any')],
      ['data that is not JSON', () => store.appendToStream('node-bad', [bigint], 'any')],
      ['undefined data', () => store.appendToStream('node-bad', [{ ...testEvent(), data: undefined }], 'any')],
      ['an empty stream name', () => store.appendToStream('', [testEvent()], 'any')],
      ['a negative expected revision', () => store.appendToStream('node-bad', [testEvent()], -1)],
      ['a fractional expected revision', () => store.appendToStream('node-bad', [testEvent()], 1.5)],
      ['an unknown expected revision', () => store.appendToStream('node-bad', [testEvent()], 'latest' as never)],
      ['a negative fromRevision', () => store.readStream('node-bad', { fromRevision: -1 })],
      ['a zero maxCount', () => store.readAll({ maxCount: 0 })],
      ['a fractional fromPosition', () => store.readAll({ fromPosition: 0.5 })],
    ];
    for (const [what, call] of cases) {
      it(`refuses ${what}`, async () => {
        await assert.rejects(call(), TypeError);
      });
    }

    it('and a refused append does not disturb appends submitted with it', async () => {
      const outcomes = await Promise.allSettled([
        store.appendToStream('node-neighbour', [testEvent()], 'no_stream'),
        store.appendToStream('node-neighbour', [], 'any'),
      ]);
      assert.deepEqual(
        outcomes.map((outcome) => outcome.status),
        ['fulfilled', 'rejected'],
      );
      assert.equal((await store.readStream('node-neighbour')).length, 1);
      assert.deepEqual(await store.readStream('node-bad'), []);
    });
  });
});
