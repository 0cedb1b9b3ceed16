/**
 * Snapshots are an optimisation: the state a snapshot gives back must be the fold of
 * the log up to its position, whatever the projection does to its collections. The
 * synthetic projection (testing/things-projection) adds, updates and removes entities,
 * keeps entities with no `lastPosition` (stored every time) and replaces a whole
 * collection; here its writers also restart in the middle or race another writer of the
 * same generation.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import type { RecordedEvent } from '@ledger/event-store';
import { StateFold } from '../state-fold';
import { foldTo, opArb, recorded, things, type Things } from '../testing/things-projection';
import { SnapshotWriter } from './snapshot-writer';
import { REMOVAL_PERIODS_KEPT } from './removal-periods';
import { SnapshotReader } from './snapshot-reader';
import { ReadModelTables } from '../read-model-tables';
import { snapshotsOf, snapshotTableNames, snapshotTablesOf } from './snapshot-tables';

/** Every snapshot of the current generation gives back the fold of `events` up to its position. */
const assertEachIsTheFold = (reader: SnapshotReader, events: RecordedEvent[]): void => {
  for (const position of reader.positions()) {
    assert.deepStrictEqual(JSON.parse(JSON.stringify(reader.load(position, things.initialState))), foldTo(events, position), `snapshot at ${position}`);
  }
};

describe('snapshots give back exactly the fold up to their position', () => {
  it('for any history of adds, updates, removals and replacements, with restarts (base keys read ahead or not) and a racing writer, into the current generation or a new one, in chunks of any size', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { maxLength: 80 }),
        fc.array(fc.nat({ max: 3 }), { maxLength: 80 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.nat({ max: 80 }), { maxLength: 3 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 3 }),
        (ops, gaps, every, restarts, racing, fixed, prefetch, entitiesPerChunk) => {
          const db = new Database(':memory:');
          try {
            const events = recorded(ops, gaps);
            // Fixed: a rebuild's new generation (entities serialised before each transaction), promoted at the end.
            const generation = fixed ? new ReadModelTables(db).allocate(snapshotsOf(things.name)) : 'current';
            const writer = (restarted = false) => {
              const made = new SnapshotWriter(db, things.name, { every, entitiesPerChunk }, generation);
              // A server reads its first delta's base keys while it starts (prefetchBase).
              if (restarted && prefetch) made.prefetchBase();
              return made;
            };
            let fold = new StateFold(things, things.initialState(), { snapshots: writer() });
            const rival = racing ? new StateFold(things, things.initialState(), { snapshots: writer() }) : null;
            events.forEach((event, i) => {
              // Restart points taken modulo the history's length, so short histories restart too.
              if (restarts.some((restart) => restart % events.length === i)) {
                // A restart: the state comes back from its checkpoint (JSON), the writer knows nothing.
                fold = new StateFold(things, JSON.parse(JSON.stringify(fold.state)) as Things, { snapshots: writer(true) });
              }
              fold.applyPage([event]);
              rival?.applyPage([event]);
            });
            if (generation !== 'current') new ReadModelTables(db).promote(snapshotsOf(things.name), generation, snapshotTablesOf(things.name));
            const reader = new SnapshotReader(db, things.name);
            const positions = reader.positions();
            const crossings = events.filter((event, i) => Math.floor(event.position / every) > Math.floor((i === 0 ? 0 : events[i - 1].position) / every));
            assert.deepStrictEqual(
              positions,
              crossings.map((event) => event.position),
              'one snapshot per boundary crossed, at the first event past it',
            );
            assertEachIsTheFold(reader, events);
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 300, includeErrorInReport: true },
    );
  });

  it("a rebuild's generation promoted under a live writer: the live writer's next snapshots are deltas against it, its keys read only when the trackers cannot tell what went since", () => {
    // By how many periods of removals the live writer keeps: none, one, or the default.
    const unread = new Map<number, number>();
    const read = new Map<number, number>();
    const count = (counts: Map<number, number>, kept: number) => counts.set(kept, (counts.get(kept) ?? 0) + 1);
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 60 }),
        fc.array(fc.nat({ max: 3 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 4 }),
        fc.nat(),
        // How far the rebuild folds before it is promoted: as far as the live fold (as a CLI rebuild catches up first), or half as far.
        fc.boolean(),
        fc.constantFrom(0, 1, REMOVAL_PERIODS_KEPT),
        (ops, gaps, every, at, caughtUp, kept) => {
          const db = new Database(':memory:');
          // Counts the reads of a snapshot's keys (the base of a foreign delta).
          let keyReads = 0;
          const counting = new Proxy(db, {
            get(target, property) {
              const value = Reflect.get(target, property, target) as unknown;
              if (property === 'prepare')
                return (source: string) => {
                  if (source.includes('BETWEEN ? AND ?')) keyReads++;
                  return target.prepare(source);
                };
              return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
            },
          });
          try {
            const events = recorded(ops, gaps);
            const live = new StateFold(things, things.initialState(), {
              snapshots: new SnapshotWriter(counting, things.name, { every, removalPeriodsKept: kept }, 'current'),
            });
            const promoteAt = at % events.length;
            events.forEach((event, i) => {
              live.applyPage([event]);
              if (i !== promoteAt) return;
              const tables = new ReadModelTables(db);
              const generation = tables.allocate(snapshotsOf(things.name));
              const rebuild = new StateFold(things, things.initialState(), { snapshots: new SnapshotWriter(db, things.name, { every }, generation) });
              rebuild.applyPage(events.slice(0, caughtUp ? i + 1 : Math.ceil((i + 1) / 2)));
              tables.promote(snapshotsOf(things.name), generation, snapshotTablesOf(things.name));
              keyReads = 0;
            });
            const reader = new SnapshotReader(db, things.name);
            // The live writer took a snapshot after the promotion: count how it found what went.
            if (reader.positions().some((position) => position > events[promoteAt].position)) {
              // A collection replaced wholesale loses keys no tracker saw go: only those histories must read keys with periods kept.
              const replaces = ops.some((op) => op.op === 'replaceItems');
              count(keyReads === 0 ? unread : read, replaces ? -1 - kept : kept);
            }
            assertEachIsTheFold(reader, events);
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 1500, includeErrorInReport: true },
    );
    // Both ways are taken: deltas on what the trackers saw go, and on the keys read. Without a
    // collection replaced, the periods kept spare every read of a base older than the
    // trackers' last drain; with one (counted under -1 - kept), the keys are read.
    const figures = `deltas without reading keys: ${[...unread]}, reading them: ${[...read]} (by periods kept)`;
    assert.ok((unread.get(0) ?? 0) > 15 && (read.get(0) ?? 0) > 8, figures);
    assert.ok((unread.get(REMOVAL_PERIODS_KEPT) ?? 0) > 60 && read.get(REMOVAL_PERIODS_KEPT) === undefined, figures);
    assert.ok((read.get(-1 - REMOVAL_PERIODS_KEPT) ?? 0) > 30, figures);
  });

  it('a base promoted from before a collection was replaced is compared key by key: no kept period knows what the replacement dropped', () => {
    const db = new Database(':memory:');
    const events = recorded(
      [
        { op: 'put', key: 'a', v: 1 },
        { op: 'put', key: 'b', v: 1 },
        // A new items object without a: no tracker sees a go.
        { op: 'replaceItems' },
        { op: 'put', key: 'c', v: 1 },
        { op: 'put', key: 'd', v: 1 },
        { op: 'put', key: 'e', v: 1 },
        { op: 'count' },
        { op: 'count' },
      ],
      [],
    );
    const live = new StateFold(things, things.initialState(), { snapshots: new SnapshotWriter(db, things.name, { every: 2 }, 'current') });
    live.applyPage(events.slice(0, 6));
    // A rebuild folded to position 2 (a and b) is promoted under it, then the live writer's next snapshot is a delta against it.
    const tables = new ReadModelTables(db);
    const generation = tables.allocate(snapshotsOf(things.name));
    const rebuild = new StateFold(things, things.initialState(), { snapshots: new SnapshotWriter(db, things.name, { every: 2 }, generation) });
    rebuild.applyPage(events.slice(0, 2));
    tables.promote(snapshotsOf(things.name), generation, snapshotTablesOf(things.name));
    live.applyPage(events.slice(6));
    const reader = new SnapshotReader(db, things.name);
    assert.deepEqual(reader.positions(), [2, 8]);
    assertEachIsTheFold(reader, events);
    db.close();
  });

  it('a key removed before a writer took its first snapshot is gone from a delta against a base another writer took after the tracking began', () => {
    const db = new Database(':memory:');
    const events = recorded([{ op: 'put', key: 'a', v: 1 }, { op: 'put', key: 'b', v: 1 }, { op: 'remove', key: 'a' }, { op: 'count' }], []);
    // A rival folding the same log takes the snapshot at 2.
    new StateFold(things, things.initialState(), { snapshots: new SnapshotWriter(db, things.name, { every: 2 }, 'current') }).applyPage(events.slice(0, 2));
    // This writer tracks its state from position 0 (as a fold's checkpoints start it) and first snapshots at 4: a delta against 2.
    const writer = new SnapshotWriter(db, things.name, { every: 2 }, 'current');
    const state = things.initialState();
    const tracking = writer.tracking(state);
    for (const event of events) things.apply(state, event, tracking);
    writer.take(state);
    assert.deepEqual(new SnapshotReader(db, things.name).positions(), [2, 4]);
    assert.deepStrictEqual(JSON.parse(JSON.stringify(new SnapshotReader(db, things.name).load(4, things.initialState))), foldTo(events, 4));
    db.close();
  });

  it('a restarted writer that read its base ahead (prefetchBase) marks what was removed since that base', () => {
    const db = new Database(':memory:');
    const events = recorded(
      [
        { op: 'put', key: 'a', v: 1 },
        { op: 'put', key: 'b', v: 1 },
        { op: 'remove', key: 'a' },
        { op: 'put', key: 'c', v: 1 },
      ],
      [],
    );
    const before = new StateFold(things, things.initialState(), { snapshots: new SnapshotWriter(db, things.name, { every: 2 }, 'current') });
    before.applyPage(events.slice(0, 2));
    // A restart from the checkpoint: the new writer reads the keys of the snapshot at 2 while it starts.
    const restarted = new SnapshotWriter(db, things.name, { every: 2 }, 'current');
    restarted.prefetchBase();
    const after = new StateFold(things, JSON.parse(JSON.stringify(before.state)) as Things, { snapshots: restarted });
    after.applyPage(events.slice(2));
    assert.deepStrictEqual(JSON.parse(JSON.stringify(new SnapshotReader(db, things.name).load(4, things.initialState))), foldTo(events, 4));
    db.close();
  });

  it("a generation an older version wrote an entity a row into is not read, and the live writer's next snapshot replaces it with a keyframe", () => {
    const db = new Database(':memory:');
    const names = snapshotTableNames(things.name, 1);
    // The layout before chunks: a snapshot at 2 holding one item a row.
    db.exec(`
      CREATE TABLE read_model_tables (name TEXT NOT NULL, generation INTEGER NOT NULL, position INTEGER NOT NULL, current INTEGER NOT NULL, PRIMARY KEY (name, generation));
      INSERT INTO read_model_tables VALUES ('${snapshotsOf(things.name)}', 1, 2, 1);
      CREATE TABLE "${names.snapshots}" (position INTEGER PRIMARY KEY, keyframe INTEGER NOT NULL, meta TEXT NOT NULL, taken_at TEXT NOT NULL);
      INSERT INTO "${names.snapshots}" VALUES (2, 1, '{"scalars":{"position":2,"counter":0},"collections":["items","plain"]}', '2026-01-01T00:00:00.000Z');
      CREATE TABLE "${names.legacyEntities}" (position INTEGER NOT NULL, collection TEXT NOT NULL, key TEXT NOT NULL, body TEXT, PRIMARY KEY (position, collection, key)) WITHOUT ROWID;
      INSERT INTO "${names.legacyEntities}" VALUES (2, 'items', 'a', '{"v":1,"lastPosition":1}');
    `);
    const reader = new SnapshotReader(db, things.name);
    assert.deepEqual(reader.positions(), []);
    assert.equal(reader.nearest(10), null);
    const events = recorded([{ op: 'put', key: 'a', v: 1 }, { op: 'put', key: 'b', v: 1 }, { op: 'bump', key: 'a' }, { op: 'count' }], []);
    const writer = new SnapshotWriter(db, things.name, { every: 2 }, 'current');
    writer.prefetchBase();
    new StateFold(things, things.initialState(), { snapshots: writer }).applyPage(events);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(({ name }) => name);
    assert.ok(!tables.includes(names.legacyEntities), tables.join(', '));
    assert.deepEqual(reader.positions(), [2, 4]);
    assertEachIsTheFold(reader, events);
    db.close();
  });

  it('a delta stores only the entities that changed since the snapshot before', () => {
    const db = new Database(':memory:');
    const events = recorded([{ op: 'put', key: 'a', v: 1 }, { op: 'put', key: 'b', v: 1 }, { op: 'count' }, { op: 'bump', key: 'b' }], []);
    const fold = new StateFold(things, things.initialState(), { snapshots: new SnapshotWriter(db, things.name, { every: 2 }, 'current') });
    fold.applyPage(events);
    const table = (db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%chunks%'").get() as { name: string }).name;
    const rows = db.prepare(`SELECT position, collection, chunk, keys, gone FROM "${table}" ORDER BY position, collection, chunk`).all();
    // At 2 (a keyframe): a and b. At 4: only b, bumped at 4.
    assert.deepStrictEqual(rows, [
      { position: 2, collection: 'items', chunk: 0, keys: '["a","b"]', gone: '[]' },
      { position: 4, collection: 'items', chunk: 0, keys: '["b"]', gone: '[]' },
    ]);
    db.close();
  });
});
