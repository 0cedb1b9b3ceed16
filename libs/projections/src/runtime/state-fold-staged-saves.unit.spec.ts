/**
 * A timed checkpoint that must save a big state whole (after a CLI rebuild promoted its
 * own, after a failed save, or when a collection was replaced) writes it a step at a time
 * into a row set of its own, which becomes the checkpoint only at its commit. Whatever
 * the history and wherever steps, restarts, promotions beside it and refused writes fall,
 * the stored checkpoint is always the fold up to its position; once the steps run out it
 * is the fold as it is, and no row of a set it no longer uses is left.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { CheckpointStore } from './checkpoint-store';
import { StateFold } from './state-fold';
import { onFaultyDisk } from './testing/checkpoints-on-faulty-disk';
import { foldTo, recorded, things, type Op, type Things } from './testing/things-projection';

/**
 * What happens after an event: the process folds on, takes a timed step, saves at once (a
 * stop), restarts from its checkpoint; or a CLI rebuild beside it promotes its state
 * folded to half as far.
 */
const actionArb = fc.constantFrom('fold', 'fold', 'step', 'step', 'step', 'step', 'step', 'save', 'restart', 'rebuild');

/**
 * Histories that add and remove many entities while a save is under way (a removal after its
 * entity was written must reach the commit), and now and then replace a whole collection.
 */
const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('put' as const), key, v: fc.integer({ min: 0, max: 9 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('plainSet' as const), key, v: fc.integer({ min: 0, max: 9 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('remove' as const), key }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('plainDelete' as const), key }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('bump' as const), key }) },
  { weight: 1, arbitrary: fc.constant({ op: 'count' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'replaceItems' as const }) },
);

const stored = (store: CheckpointStore) => store.load<Things>(things.name);
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('a full checkpoint written a step at a time', () => {
  it('leaves the stored checkpoint the fold up to its position at every step, and once done the fold itself with no row left over', () => {
    let commits = 0;
    let abandoned = 0;
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 60 }),
        fc.array(fc.nat({ max: 2 }), { maxLength: 60 }),
        fc.array(actionArb, { minLength: 60, maxLength: 60 }),
        fc.integer({ min: 1, max: 2 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(0, 0.1),
        fc.boolean(),
        (ops, gaps, actions, stepEntities, seed, faults, wholeRebuilds) => {
          onFaultyDisk(seed, faults, ({ db, store, refusable: refused }) => {
            const events = recorded(ops, gaps);
            const commitStaged = store.commitStaged.bind(store);
            store.commitStaged = (...args) => {
              commitStaged(...args);
              commits++;
            };
            const start = (): StateFold<Things> => {
              const checkpoint = stored(store);
              return new StateFold(things, checkpoint?.state ?? things.initialState(), {
                checkpoints: store,
                stored: checkpoint?.savedAs,
                fullSaveStep: stepEntities,
              });
            };
            const consistent = () => {
              const checkpoint = stored(store);
              if (checkpoint) assert.deepStrictEqual(plain(checkpoint.state), foldTo(events, checkpoint.position));
            };
            const refusable = (write: () => void) => {
              if (refused(write)) abandoned++;
            };
            let fold = start();
            events.forEach((event, i) => {
              fold.applyPage([event]);
              const action = actions[i];
              if (action === 'step') refusable(() => fold.flush({ step: true }));
              if (action === 'save') refusable(() => fold.flush());
              if (action === 'rebuild') {
                const rebuilt = new StateFold(things, things.initialState());
                rebuilt.applyPage(events.slice(0, Math.ceil(i / 2)));
                rebuilt.saveCheckpointsTo(store, { whole: wholeRebuilds });
                rebuilt.flush();
              }
              if (action === 'restart') {
                fold = start();
                fold.applyPage(events.slice(0, i + 1));
              }
              consistent();
            });
            // The log is quiet: timed steps run until nothing is pending.
            for (let steps = 0; fold.checkpointWorkPending() || fold.position !== stored(store)?.position; steps++) {
              assert.ok(steps < 1_000, 'the steps come to an end');
              fold.flush({ step: true });
              consistent();
            }
            const checkpoint = stored(store)!;
            assert.equal(checkpoint.position, events[events.length - 1].position);
            assert.deepStrictEqual(plain(checkpoint.state), plain(fold.state));
            if (checkpoint.savedAs === 'entities') {
              const live = store.liveRowSet(things.name);
              assert.equal(store.hasGarbage(things.name), false);
              assert.equal(db.prepare('SELECT count(*) FROM checkpoint_entities WHERE name != ?').pluck().get(live), 0, 'rows of another set');
            }
          });
        },
      ),
      { numRuns: 1500, includeErrorInReport: true },
    );
    // The property went through the staged path many times, and through abandoned steps.
    assert.ok(commits > 100, `staged saves committed: ${commits}`);
    assert.ok(abandoned > 50, `writes refused: ${abandoned}`);
  });

  it('writes no more than a step of entities in any one transaction after a CLI rebuild promoted its state beside it', () => {
    const db = new Database(':memory:');
    const store = CheckpointStore.on(db);
    const events = recorded(
      Array.from({ length: 40 }, (_, i) => ({ op: 'put' as const, key: `k${i}`, v: i })),
      [],
    );
    const fold = new StateFold(things, things.initialState(), { checkpoints: store, fullSaveStep: 5 });
    fold.applyPage(events.slice(0, 20));
    fold.flush();
    const rebuilt = new StateFold(things, things.initialState());
    rebuilt.applyPage(events.slice(0, 20));
    rebuilt.saveCheckpointsTo(store, { whole: true });
    rebuilt.flush();
    fold.applyPage(events.slice(20));

    const changes = db.prepare('SELECT total_changes()').pluck();
    const perStep: number[] = [];
    while (fold.checkpointWorkPending()) {
      const before = changes.get() as number;
      fold.flush({ step: true });
      perStep.push((changes.get() as number) - before);
    }
    // The delta refused, the set begun, 40 entities 5 at a time, the commit, the old set deleted 5 rows at a time.
    assert.ok(perStep.length >= 1 + 1 + 8 + 1 + 4, `steps: ${perStep.join(', ')}`);
    // A step's rows, and the bookkeeping rows beside them (the position's, the garbage list's, a whole state's).
    assert.ok(
      perStep.every((count) => count <= 5 + 3),
      `rows per step: ${perStep.join(', ')}`,
    );
    assert.deepStrictEqual(plain(stored(store)!.state), foldTo(events, 40));
    assert.equal(db.prepare('SELECT count(*) FROM checkpoint_entities').pluck().get(), 40);
    db.close();
  });

  it('brings to its commit what changed while it was written: an entity removed after its step, one changed after, one added', () => {
    const db = new Database(':memory:');
    const store = CheckpointStore.on(db);
    const puts = recorded(
      Array.from({ length: 12 }, (_, i) => ({ op: 'put' as const, key: `k${String(i).padStart(2, '0')}`, v: i })),
      [],
    );
    const fold = new StateFold(things, things.initialState(), { checkpoints: store, fullSaveStep: 3 });
    fold.applyPage(puts);
    // A collection replaced: the next save is whole, and written a step at a time.
    const later = recorded(
      [
        ...puts.map((event) => event.data as Op),
        { op: 'replaceItems' },
        { op: 'remove', key: 'k01' },
        { op: 'bump', key: 'k02' },
        { op: 'put', key: 'k99', v: 7 },
      ],
      [],
    ).slice(12);
    fold.applyPage(later.slice(0, 1));
    fold.flush({ step: true }); // begins, with k00 to k11 to write
    fold.flush({ step: true }); // writes k00, k01, k02
    fold.flush({ step: true }); // writes k03, k04, k05
    fold.applyPage(later.slice(1)); // k01 removed, k02 changed, k99 added
    while (fold.checkpointWorkPending()) fold.flush({ step: true });
    const events = [...puts, ...later];
    assert.deepStrictEqual(plain(stored(store)!.state), foldTo(events, events.length));
    assert.equal(db.prepare('SELECT count(*) FROM checkpoint_entities').pluck().get(), Object.keys(fold.state.items).length);
    db.close();
  });

  it('takes over a checkpoint an earlier version saved under its own name: loads it, saves deltas into it, and deletes its rows once replaced', () => {
    const db = new Database(':memory:');
    const store = CheckpointStore.on(db);
    const events = recorded(
      Array.from({ length: 30 }, (_, i) => ({ op: 'put' as const, key: `k${i % 12}`, v: i })),
      [],
    );
    const earlier = new StateFold(things, things.initialState(), { checkpoints: store });
    earlier.applyPage(events.slice(0, 10));
    earlier.flush();
    // As an earlier version kept it: rows under the name itself, a meta naming no row set.
    db.prepare('UPDATE checkpoint_entities SET name = ?').run(things.name);
    const metaRow = db.prepare('SELECT state FROM checkpoints WHERE name = ?').pluck();
    const { rows: _rows, ...meta } = JSON.parse(metaRow.get(`${things.name}/entities`) as string) as { rows: string };
    db.prepare('UPDATE checkpoints SET state = ? WHERE name = ?').run(JSON.stringify(meta), `${things.name}/entities`);

    const start = () => {
      const checkpoint = stored(store)!;
      return new StateFold(things, checkpoint.state, { checkpoints: store, stored: checkpoint.savedAs, fullSaveStep: 2 });
    };
    let fold = start();
    fold.applyPage(events.slice(10, 15));
    fold.flush({ step: true });
    assert.equal(store.liveRowSet(things.name), things.name, 'the delta went into the rows it had');
    assert.deepStrictEqual(plain(stored(store)!.state), foldTo(events, 15));

    // A CLI promotes a whole state beside it: the rows under the name are no one's now.
    const rebuilt = new StateFold(things, things.initialState());
    rebuilt.applyPage(events.slice(0, 15));
    rebuilt.saveCheckpointsTo(store, { whole: true });
    rebuilt.flush();
    fold = start();
    fold.applyPage(events.slice(15));
    fold.flush();
    assert.deepStrictEqual(plain(stored(store)!.state), foldTo(events, 30));
    assert.equal(db.prepare('SELECT count(*) FROM checkpoint_entities WHERE name != ?').pluck().get(store.liveRowSet(things.name)), 0);
    db.close();
  });
});
