/**
 * A snapshot's chunks must hold exactly the changed entities, in the order the collection gives them,
 * and stay small strings: at most `perChunk` entities, and, once the first chunk has shown
 * how big the entities print, about `chunkChars` of JSON (SNAPSHOT_CHUNK_CHARS keeps them
 * out of V8's large-object space).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { changedChunks } from './snapshot-chunks';
import { SNAPSHOT_CHUNK_CHARS, SNAPSHOT_CHUNK_ENTITIES } from './snapshot-tables';
import { TrackedCollection } from './tracked-collections';

interface Entity {
  lastPosition: number;
  note: string;
}

const collectionOf = (entities: Entity[]): TrackedCollection => new TrackedCollection(Object.fromEntries(entities.map((entity, i) => [`k${i}`, entity])));

describe('a snapshot chunks the changed entities', () => {
  it('holds every changed entity once, in order, at most perChunk to a chunk, whatever their sizes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ lastPosition: fc.nat({ max: 20 }), note: fc.string({ maxLength: 300 }) }), { maxLength: 400 }),
        fc.option(fc.nat({ max: 20 })),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 5_000 }),
        (entities, since, perChunk, chunkChars) => {
          const chunks = changedChunks(collectionOf(entities), since, perChunk, chunkChars);
          // (As JSON gives them back: fast-check's records have no prototype.)
          const expected = entities.flatMap((entity, i) => (since === null || entity.lastPosition > since ? [[`k${i}`, { ...entity }] as const] : []));
          const keys = chunks.flatMap(([chunkKeys]) => JSON.parse(chunkKeys) as string[]);
          const bodies = chunks.flatMap(([, chunkBodies]) => JSON.parse(chunkBodies) as Entity[]);
          assert.deepStrictEqual(
            keys,
            expected.map(([key]) => key),
          );
          assert.deepStrictEqual(
            bodies,
            expected.map(([, entity]) => entity),
          );
          for (const [chunkKeys] of chunks) {
            const count = (JSON.parse(chunkKeys) as string[]).length;
            assert.ok(count >= 1 && count <= perChunk, `a chunk of ${count} entities (at most ${perChunk})`);
          }
        },
      ),
    );
  });

  it('keeps chunks of entities that print alike near the characters asked for, each under V8’s 128 KB large-object threshold by default', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 2_000 }), fc.integer({ min: 1_000, max: 5_000 }), (entityChars, count) => {
        const entities = Array.from({ length: count }, () => ({ lastPosition: 1, note: 'x'.repeat(entityChars) }));
        const chunks = changedChunks(collectionOf(entities), null);
        const sizes = chunks.map(([, bodies]) => bodies.length);
        const entitySize = JSON.stringify(entities[0]).length + 1;
        for (const size of sizes) assert.ok(size <= SNAPSHOT_CHUNK_CHARS + entitySize, `a chunk of ${size} characters`);
        // Between the first (sized before any was printed) and the last (what is left), chunks are full.
        for (const size of sizes.slice(1, -1)) assert.ok(size >= SNAPSHOT_CHUNK_CHARS * 0.95, `a chunk of ${size} characters, not full`);
        assert.ok(Math.max(...sizes) * 2 < 128 * 1024, 'two bytes a character would still be under 128 KB');
      }),
      { numRuns: 30 },
    );
  });

  it('caps a chunk of tiny entities at SNAPSHOT_CHUNK_ENTITIES', () => {
    const entities = Array.from({ length: 3 * SNAPSHOT_CHUNK_ENTITIES }, (_, i) => ({ lastPosition: i, note: '' }));
    const counts = changedChunks(collectionOf(entities), null).map(([keys]) => (JSON.parse(keys) as string[]).length);
    assert.equal(Math.max(...counts), SNAPSHOT_CHUNK_ENTITIES);
    assert.equal(
      counts.reduce((sum, n) => sum + n, 0),
      entities.length,
    );
  });
});
