/**
 * A tracked collection answers "what changed since P" from its fold's reports, for any P a
 * snapshot or checkpoint may ask: exactly the entities changed after P that are still
 * there, each once, with its entity as it is now. The log behind it stays bounded: cut as
 * readers move on (keepFrom), dropped past its limit; an answer from before what it holds
 * comes from a scan, and is the same.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TrackedCollection } from './tracked-collections';

interface Entity {
  v: number;
  lastPosition: number;
}

type Step =
  | { kind: 'put'; key: string; v: number }
  | { kind: 'bump'; key: string }
  | { kind: 'remove'; key: string }
  | { kind: 'keep'; reader: 'snapshots' | 'checkpoints'; back: number }
  | { kind: 'next' };

const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('put' as const), key, v: fc.nat({ max: 9 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('bump' as const), key }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), key }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('keep' as const),
      reader: fc.constantFrom('snapshots' as const, 'checkpoints' as const),
      back: fc.nat({ max: 4 }),
    }),
  },
  // A new event: several steps may share one position, as a fold's reports for one event do.
  { weight: 3, arbitrary: fc.constant({ kind: 'next' as const }) },
);

/** What the collection holds (in order) as the model tracks it: the answer for `since`. */
const changedSince = (target: Record<string, Entity>, since: number | null): [string, Entity][] =>
  Object.entries(target).filter(([, entity]) => since === null || entity.lastPosition > since);

const byKey = (pairs: [string, unknown][]): [string, unknown][] => [...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe('a tracked collection, fed by its fold’s reports', () => {
  it('answers what changed since any position exactly, each key once, while its log is cut and dropped', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { maxLength: 120 }),
        fc.record({ slack: fc.integer({ min: 0, max: 6 }), limit: fc.integer({ min: 1, max: 40 }) }),
        fc.nat({ max: 5 }),
        (steps, limits, start) => {
          const target: Record<string, Entity> = {};
          const collection = new TrackedCollection(target, start, limits);
          let position = start;
          let largestLog = 0;
          for (const step of steps) {
            if (step.kind === 'next') position++;
            else if (step.kind === 'put') {
              target[step.key] = { v: step.v, lastPosition: position };
              collection.changed(step.key, target[step.key], position);
            } else if (step.kind === 'bump') {
              const entity = target[step.key];
              if (entity) {
                entity.v++;
                entity.lastPosition = position;
                collection.changed(step.key, entity, position);
              }
            } else if (step.kind === 'remove') {
              if (step.key in target) {
                delete target[step.key];
                collection.deleted(step.key, position);
              }
            } else collection.keepFrom(step.reader, Math.max(start, position - step.back));
            largestLog = Math.max(largestLog, collection.reportsKept);
            // Every position a reader could ask about, from before the tracking began to now.
            for (let since = start - 1; since <= position; since++) {
              const seen: [string, unknown][] = [];
              collection.forEachChangedSince(since, (k, entity) => seen.push([k, entity]));
              assert.equal(new Set(seen.map(([k]) => k)).size, seen.length, `a key twice since ${since}`);
              assert.deepStrictEqual(byKey(seen), byKey(changedSince(target, since)), `changed since ${since}`);
            }
            const all: [string, unknown][] = [];
            collection.forEachChangedSince(null, (k, entity) => all.push([k, entity]));
            assert.deepStrictEqual(all, changedSince(target, null));
          }
          assert.ok(largestLog <= limits.limit, `the log held ${largestLog} reports, over its limit of ${limits.limit}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives new keys in the order they were added, so a snapshot loads them in the fold’s order', () => {
    const target: Record<string, Entity> = {};
    const collection = new TrackedCollection(target, 0);
    const put = (k: string, position: number) => collection.changed(k, (target[k] = { v: 0, lastPosition: position }), position);
    put('x', 1);
    put('y', 2);
    put('z', 2);
    // Changed again later: it keeps its first place.
    target.x.lastPosition = 3;
    collection.changed('x', target.x, 3);
    const seen: string[] = [];
    collection.forEachChangedSince(0, (k) => seen.push(k));
    assert.deepStrictEqual(seen, ['x', 'y', 'z']);
  });

  it('keeps only what its readers still need: cut to the earliest position a reader keeps', () => {
    const target: Record<string, Entity> = {};
    const collection = new TrackedCollection(target, 0, { slack: 0, limit: 1_000 });
    for (let position = 1; position <= 100; position++)
      collection.changed(`k${position}`, (target[`k${position}`] = { v: 0, lastPosition: position }), position);
    collection.keepFrom('snapshots', 90);
    assert.equal(collection.reportsKept, 10);
    // The checkpoints keep from further back: nothing more is cut until they move on.
    collection.keepFrom('checkpoints', 40);
    collection.keepFrom('snapshots', 100);
    assert.equal(collection.reportsKept, 10);
    collection.keepFrom('checkpoints', 100);
    assert.equal(collection.reportsKept, 0);
    // Asked from before what the log holds, it scans, and answers the same.
    const seen: string[] = [];
    collection.forEachChangedSince(95, (k) => seen.push(k));
    assert.deepStrictEqual(seen, ['k96', 'k97', 'k98', 'k99', 'k100']);
  });
});
