/**
 * A CLI rebuild promotes its state as one text, but a state may be longer than one string can
 * be (V8's cap, about 512 MiB: the view of a 10,000,000-event ledger is about a gigabyte of JSON).
 * Such a state is saved by entities instead, and reads back the same.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { CheckpointStore } from './checkpoint-store';
import { StateFold } from './state-fold';
import { foldTo, recorded, things, type Things } from './testing/things-projection';
import { wholeText } from './whole-text';

const events = recorded(
  [
    { op: 'put', key: 'a', v: 1 },
    { op: 'put', key: 'b', v: 2 },
    { op: 'put', key: 'c', v: 3 },
    { op: 'remove', key: 'a' },
  ],
  [],
);

describe('a state too long for one text', () => {
  it('is null to wholeText, as V8 refusing a string longer than it allows is', () => {
    assert.equal(wholeText({ a: 1 }, 5), null);
    assert.equal(wholeText({ a: 1 }), '{"a":1}');
    // Five references to one 128 MiB string: its JSON would be 640 MiB, past V8's cap.
    const part = 'x'.repeat(2 ** 27);
    assert.equal(wholeText([part, part, part, part, part]), null);
  });

  for (const serialisedAhead of [true, false]) {
    it(`is promoted by entities and loads back as the fold (${serialisedAhead ? 'serialised ahead' : 'serialised at the save'})`, () => {
      const db = new Database(':memory:');
      const store = CheckpointStore.on(db);
      const rebuilt = new StateFold(things, things.initialState(), { wholeTextLimit: 10 });
      rebuilt.applyPage(events);
      if (serialisedAhead) rebuilt.serialiseCheckpoint();
      rebuilt.saveCheckpointsTo(store, { whole: true });
      rebuilt.flush();
      const stored = store.load<Things>(things.name)!;
      assert.deepStrictEqual([stored.savedAs, stored.position], ['entities', 4]);
      assert.deepStrictEqual(JSON.parse(JSON.stringify(stored.state)), foldTo(events, 4));
      db.close();
    });
  }
});
