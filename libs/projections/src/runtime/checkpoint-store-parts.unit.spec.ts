import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { CheckpointStore } from './checkpoint-store';

/** A state of any JSON, its strings drawn from all of Unicode (astral characters are two UTF-16 units a part must not split). */
const stateArb = fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 });

/** One save of the sequence: whole (in one row or in parts, by its length) or by entities. */
const saveArb = fc.oneof(
  fc.record({ as: fc.constant('whole' as const), state: stateArb }),
  fc.record({ as: fc.constant('entities' as const), items: fc.dictionary(fc.string({ maxLength: 5 }), fc.nat(), { maxKeys: 4 }) }),
);

const rowsOf = (db: Database.Database, name: string): string[] =>
  (db.prepare("SELECT name FROM checkpoints WHERE name = ? OR name LIKE ? || '/%' ORDER BY name").pluck().all(name, name) as string[]).filter(
    (row) => !row.endsWith('/garbage'),
  );

describe('a whole-state checkpoint longer than a part', () => {
  it('is written in parts that load back as the state saved, whatever its characters; the save after it leaves none behind', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.array(saveArb, { minLength: 1, maxLength: 6 }), (partChars, saves) => {
        const db = new Database(':memory:');
        const store = CheckpointStore.on(db, { wholePartChars: partChars });
        saves.forEach((save, i) => {
          const position = i + 1;
          if (save.as === 'whole') {
            const json = JSON.stringify(save.state);
            store.saveJson('s', position, json, new Date(0));
            const loaded = store.load<unknown>('s')!;
            assert.deepStrictEqual([loaded.savedAs, loaded.position], ['whole', position]);
            assert.deepStrictEqual(loaded.state, JSON.parse(json));
            const parts = Math.ceil(json.length / partChars);
            const rows = rowsOf(db, 's');
            // One row when it fits; else the parts' row and at least as many parts as the length needs (a part gives up a character rather than cut a pair).
            if (json.length <= partChars) assert.deepStrictEqual(rows, ['s']);
            else {
              assert.ok(rows.includes('s/parts') && !rows.includes('s') && !rows.includes('s/entities'), rows.join(', '));
              assert.ok(rows.filter((row) => row.startsWith('s/part/')).length >= parts);
            }
          } else {
            const changed = new Map([['items', Object.entries(save.items).map(([key, v]): [string, string] => [key, JSON.stringify(v)])]]);
            store.saveEntities(
              's',
              { position, meta: { scalars: { position }, collections: ['items'] }, full: true, since: null, changed, gone: new Map() },
              new Date(0),
            );
            const loaded = store.load<{ items: Record<string, number> }>('s')!;
            assert.deepStrictEqual([loaded.savedAs, loaded.position, loaded.state.items], ['entities', position, { ...save.items }]);
            assert.deepStrictEqual(rowsOf(db, 's'), ['s/entities'], 'no whole-state row or part is left');
          }
        });
        db.close();
      }),
      { numRuns: 300 },
    );
  });
});
