/**
 * A checkpoint or snapshot that gives way to another holder of the read-model file's write
 * lock (the audit index's thread, a CLI rebuild beside the server) writes nothing and loses
 * nothing: what changed meanwhile, removals included, goes into the next write that finds
 * the lock free. On a real file, with a second connection taking and letting go of the lock.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { CheckpointStore } from './checkpoint-store';
import { openReadModelDatabase } from './read-model-database';
import { SnapshotReader } from './snapshots/snapshot-reader';
import { SnapshotWriter } from './snapshots/snapshot-writer';
import { StateFold } from './state-fold';
import { foldTo, opArb, recorded, things, type Things } from './testing/things-projection';

const dir = mkdtempSync(join(tmpdir(), 'ledger-fold-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

let files = 0;
/** A fresh read-model file, the connection that folds into it, and another that takes its write lock; all gone after `use`. */
const withTwoConnections = (use: (db: Database.Database, other: Database.Database) => void): void => {
  const file = join(dir, `fold-${files++}.sqlite`);
  const db = openReadModelDatabase(file);
  const other = new Database(file);
  try {
    use(db, other);
  } finally {
    other.close();
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }
};

describe('a checkpoint that gives way to another holder of the write lock', () => {
  it('saves nothing while the lock is taken, and the next save once it is free gives back the fold, for any history', () => {
    let gaveWay = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(opArb, fc.boolean(), fc.constantFrom('fold', 'save', 'save', 'restart')), { maxLength: 40 }),
        fc.array(fc.nat({ max: 3 }), { maxLength: 40 }),
        (steps, gaps) =>
          withTwoConnections((db, other) => {
            const events = recorded(
              steps.map(([op]) => op),
              gaps,
            );
            const store = CheckpointStore.on(db);
            const start = (): StateFold<Things> => {
              const stored = store.load<Things>(things.name);
              return new StateFold(things, stored?.state ?? things.initialState(), { checkpoints: store, stored: stored?.savedAs });
            };
            let fold = start();
            steps.forEach(([, locked, step], i) => {
              if (locked && !other.inTransaction) other.prepare('BEGIN IMMEDIATE').run();
              if (!locked && other.inTransaction) other.prepare('COMMIT').run();
              fold.applyPage([events[i]]);
              if (step === 'save') {
                const before = store.load<Things>(things.name);
                const saved = fold.flush({ wait: false });
                assert.equal(saved, !locked);
                if (locked) {
                  gaveWay++;
                  assert.deepStrictEqual(plain(store.load<Things>(things.name)), plain(before));
                } else {
                  const stored = store.load<Things>(things.name)!;
                  assert.equal(stored.position, events[i].position);
                  assert.deepStrictEqual(plain(stored.state), foldTo(events, stored.position));
                }
              }
              if (step === 'restart') {
                // What was folded since the last checkpoint saved is lost; the new process folds it again.
                fold = start();
                fold.applyPage(events.slice(0, i + 1));
              }
            });
            if (other.inTransaction) other.prepare('COMMIT').run();
            assert.equal(fold.flush({ wait: false }), true);
            if (events.length === 0) return;
            const stored = store.load<Things>(things.name)!;
            assert.equal(stored.position, events[events.length - 1].position);
            assert.deepStrictEqual(plain(stored.state), foldTo(events, stored.position));
          }),
      ),
      { numRuns: 300, includeErrorInReport: true },
    );
    // The generator reaches what it is for: saves refused by the lock, then later ones that catch up.
    assert.ok(gaveWay > 100, `only ${gaveWay} saves gave way`);
  });

  it('a snapshot due gives way and is taken at a later page, and every snapshot written is the fold at its position, for any history', () => {
    let owed = 0;
    let late = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(opArb, fc.boolean(), fc.boolean()), { maxLength: 40 }),
        fc.array(fc.nat({ max: 3 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        (steps, gaps, every) =>
          withTwoConnections((db, other) => {
            const events = recorded(
              steps.map(([op]) => op),
              gaps,
            );
            const store = CheckpointStore.on(db);
            const snapshots = new SnapshotWriter(db, things.name, { every }, 'current');
            const fold = new StateFold(things, things.initialState(), {
              checkpoints: store,
              snapshots,
              snapshotsWait: false,
              onSnapshotDeferred: () => owed++,
            });
            steps.forEach(([, locked, save], i) => {
              if (locked && !other.inTransaction) other.prepare('BEGIN IMMEDIATE').run();
              if (!locked && other.inTransaction) other.prepare('COMMIT').run();
              fold.applyPage([events[i]]);
              if (save) fold.flush({ wait: false });
            });
            if (other.inTransaction) other.prepare('COMMIT').run();
            fold.flush();
            const reader = new SnapshotReader(db, things.name);
            const positions = reader.positions();
            // Where the snapshots fall when none gives way: the first event past each multiple of `every`.
            const due = new Set(
              events.filter((event, i) => Math.floor(event.position / every) > Math.floor((events[i - 1]?.position ?? 0) / every)).map((e) => e.position),
            );
            for (const position of positions) {
              assert.deepStrictEqual(plain(reader.load(position, things.initialState)), foldTo(events, position), `the snapshot at ${position}`);
              if (!due.has(position)) late++;
            }
            // The last boundary the fold crossed has its snapshot, or a later one.
            const last = events.length > 0 ? events[events.length - 1].position : 0;
            if (Math.floor(last / every) > 0) assert.ok(positions.length > 0 && positions[positions.length - 1] >= Math.floor(last / every) * every);
          }),
      ),
      { numRuns: 300, includeErrorInReport: true },
    );
    assert.ok(owed > 50, `only ${owed} snapshots gave way`);
    assert.ok(late > 10, `only ${late} snapshots were taken late`);
  });
});
