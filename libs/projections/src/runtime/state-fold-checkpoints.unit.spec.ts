/**
 * A fold's checkpoint is saved entity by entity, and after the first save only what
 * changed since the last one. Whatever the history, wherever the saves fall, however
 * often the process restarts from its checkpoint and whichever saves a full disk refuses,
 * loading the checkpoint gives back exactly the fold up to its position.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { CheckpointStore } from './checkpoint-store';
import { StateFold } from './state-fold';
import { SnapshotWriter } from './snapshots/snapshot-writer';
import { faultPlan, faultyDatabase } from './testing/faulty-database';
import { foldTo, opArb, recorded, things, type Things } from './testing/things-projection';

/**
 * What happens after an event: the process folds on, saves a checkpoint, or restarts from
 * the last one; or a CLI rebuild, beside it, promotes the whole state folded to half as far.
 */
const stepArb = fc.constantFrom('fold', 'fold', 'fold', 'save', 'save', 'restart', 'rebuild');

describe('a checkpoint saved entity by entity gives back the fold up to its position', () => {
  it('for any history, any saves, restarts and rebuilds promoted beside it, with or without snapshots sharing the tracking, and saves refused by a full disk', () => {
    fc.assert(
      fc.property(
        fc.array(opArb, { maxLength: 60 }),
        fc.array(fc.nat({ max: 3 }), { maxLength: 60 }),
        fc.array(stepArb, { minLength: 60, maxLength: 60 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        // How often a write of a save fails: rarely, so deltas follow deltas; often, so they follow failed ones.
        fc.constantFrom(0.05, 0.3),
        (ops, gaps, steps, withSnapshots, seed, faults) => {
          const real = new Database(':memory:');
          const plan = faultPlan(seed, faults);
          const db = faultyDatabase(real, plan);
          try {
            const events = recorded(ops, gaps);
            const store = CheckpointStore.on(db);
            const start = (): StateFold<Things> => {
              const stored = store.load<Things>(things.name);
              const snapshots = withSnapshots ? new SnapshotWriter(db, things.name, { every: 3 }, 'current') : null;
              return new StateFold(things, stored?.state ?? things.initialState(), { checkpoints: store, snapshots, checkpointed: stored?.entities === true });
            };
            let fold = start();
            const save = () => {
              plan.on = true;
              try {
                fold.flush();
              } catch (error) {
                assert.match((error as { code?: string }).code ?? '', /^SQLITE_(FULL|IOERR_WRITE)$/);
              } finally {
                plan.on = false;
              }
            };
            events.forEach((event, i) => {
              fold.applyPage([event]);
              if (steps[i] === 'save') save();
              if (steps[i] === 'rebuild') {
                const rebuilt = new StateFold(things, things.initialState());
                rebuilt.applyPage(events.slice(0, Math.ceil(i / 2)));
                rebuilt.saveCheckpointsTo(store);
                rebuilt.flush();
              }
              if (steps[i] === 'restart') {
                // What was folded since the last checkpoint is lost; the new process folds it again from the log.
                fold = start();
                fold.applyPage(events.slice(0, i + 1));
              }
            });
            fold.flush();
            const stored = store.load<Things>(things.name);
            if (events.length === 0) return;
            assert.ok(stored?.entities, 'saved entity by entity');
            assert.equal(stored.position, events[events.length - 1].position);
            assert.deepStrictEqual(JSON.parse(JSON.stringify(stored.state)), foldTo(events, stored.position));
          } finally {
            real.close();
          }
        },
      ),
      { numRuns: 1500, includeErrorInReport: true },
    );
  });

  it('a save after the first writes only the entities changed since, and removes the ones gone', () => {
    const db = new Database(':memory:');
    const store = CheckpointStore.on(db);
    const events = recorded(
      [
        { op: 'put', key: 'a', v: 1 },
        { op: 'put', key: 'b', v: 1 },
        { op: 'put', key: 'c', v: 1 },
        { op: 'bump', key: 'b' },
        { op: 'remove', key: 'c' },
      ],
      [],
    );
    const fold = new StateFold(things, things.initialState(), { checkpoints: store });
    fold.applyPage(events.slice(0, 3));
    fold.flush();
    const changes = db.prepare('SELECT total_changes()').pluck();
    const before = changes.get() as number;
    const again = new StateFold(things, JSON.parse(JSON.stringify(fold.state)) as Things, { checkpoints: store, checkpointed: true });
    again.applyPage(events.slice(3));
    again.flush();
    // b's row replaced, c's deleted, the position's row updated: nothing else rewritten (a whole save: 6 changes).
    assert.equal((changes.get() as number) - before, 3);
    assert.deepStrictEqual(JSON.parse(JSON.stringify(store.load<Things>(things.name)!.state)), foldTo(events, 5));
    db.close();
  });

  it("a checkpoint another writer saved since (a CLI rebuild's promotion beside the server) makes the next save whole, never a delta over theirs", () => {
    const db = new Database(':memory:');
    const store = CheckpointStore.on(db);
    const events = recorded(
      [
        { op: 'put', key: 'a', v: 1 },
        { op: 'put', key: 'b', v: 1 },
        { op: 'bump', key: 'a' },
        { op: 'put', key: 'c', v: 1 },
        { op: 'put', key: 'd', v: 1 },
        { op: 'count' },
      ],
      [],
    );
    const server = new StateFold(things, things.initialState(), { checkpoints: store });
    server.applyPage(events.slice(0, 4));
    server.flush();
    // A rebuild promoted behind the server: its whole state at 2 replaces the server's checkpoint at 4.
    const rebuilt = new StateFold(things, things.initialState());
    rebuilt.applyPage(events.slice(0, 2));
    rebuilt.saveCheckpointsTo(store);
    rebuilt.flush();
    server.applyPage(events.slice(4));
    server.flush();
    // A delta since 4 over the rebuild's rows would keep a at v1 and lack c.
    assert.deepStrictEqual(JSON.parse(JSON.stringify(store.load<Things>(things.name)!.state)), foldTo(events, 6));
    db.close();
  });

  it('a state checkpointed whole by an earlier version is loaded, and saved entity by entity from then on', () => {
    const db = new Database(':memory:');
    const store = CheckpointStore.on(db);
    const events = recorded([{ op: 'put', key: 'a', v: 1 }, { op: 'count' }, { op: 'put', key: 'b', v: 2 }], []);
    store.save(things.name, 2, foldTo(events, 2), new Date(0));
    const stored = store.load<Things>(things.name)!;
    assert.equal(stored.entities, false);
    const fold = new StateFold(things, stored.state, { checkpoints: store, checkpointed: stored.entities });
    fold.applyPage(events.slice(2));
    fold.flush();
    const now = store.load<Things>(things.name)!;
    assert.equal(now.entities, true);
    assert.deepStrictEqual(JSON.parse(JSON.stringify(now.state)), foldTo(events, 3));
    // The whole-state row is gone: an older version finds no checkpoint and folds from position 0, never a stale one.
    assert.equal(db.prepare('SELECT COUNT(*) FROM checkpoints WHERE name = ?').pluck().get(things.name), 0);
    db.close();
  });
});
