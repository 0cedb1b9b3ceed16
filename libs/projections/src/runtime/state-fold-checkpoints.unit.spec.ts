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
import { onFaultyDisk } from './testing/checkpoints-on-faulty-disk';

/**
 * What happens after an event: the process folds on, saves a checkpoint, or restarts from
 * the last one; or a CLI rebuild, beside it, promotes its state folded to half as far.
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
        // Whether a rebuild's promotion saves its state as one text (as `ledger-cli rebuild` does) or by entities.
        fc.boolean(),
        (ops, gaps, steps, withSnapshots, seed, faults, wholeRebuilds) => {
          onFaultyDisk(seed, faults, ({ db, store, refusable }) => {
            const events = recorded(ops, gaps);
            const start = (): StateFold<Things> => {
              const stored = store.load<Things>(things.name);
              const snapshots = withSnapshots ? new SnapshotWriter(db, things.name, { every: 3 }, 'current') : null;
              return new StateFold(things, stored?.state ?? things.initialState(), { checkpoints: store, snapshots, stored: stored?.savedAs });
            };
            let fold = start();
            const save = () => refusable(() => fold.flush());
            events.forEach((event, i) => {
              fold.applyPage([event]);
              if (steps[i] === 'save') save();
              if (steps[i] === 'rebuild') {
                const rebuilt = new StateFold(things, things.initialState());
                rebuilt.applyPage(events.slice(0, Math.ceil(i / 2)));
                rebuilt.saveCheckpointsTo(store, { whole: wholeRebuilds });
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
            assert.equal(stored?.savedAs, 'entities');
            assert.equal(stored.position, events[events.length - 1].position);
            assert.deepStrictEqual(JSON.parse(JSON.stringify(stored.state)), foldTo(events, stored.position));
          });
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
    const again = new StateFold(things, JSON.parse(JSON.stringify(fold.state)) as Things, { checkpoints: store, stored: 'entities' });
    again.applyPage(events.slice(3));
    again.flush();
    // b's row replaced, c's deleted, the position's row updated: nothing else rewritten (a whole save: 6 changes).
    assert.equal((changes.get() as number) - before, 3);
    assert.deepStrictEqual(JSON.parse(JSON.stringify(store.load<Things>(things.name)!.state)), foldTo(events, 5));
    db.close();
  });

  it('a save a full disk refused makes the next one whole: the removals it carried are not lost', () => {
    const real = new Database(':memory:');
    const plan = { ...faultPlan(1, 1), onlyAtCommit: true };
    const db = faultyDatabase(real, plan);
    const store = CheckpointStore.on(db);
    const events = recorded(
      [
        { op: 'put', key: 'a', v: 1 },
        { op: 'put', key: 'b', v: 1 },
        { op: 'remove', key: 'a' },
        { op: 'put', key: 'c', v: 1 },
      ],
      [],
    );
    const fold = new StateFold(things, things.initialState(), { checkpoints: store });
    fold.applyPage(events.slice(0, 2));
    fold.flush();
    fold.applyPage(events.slice(2, 3));
    plan.on = true;
    assert.throws(() => fold.flush(), { code: /^SQLITE_(FULL|IOERR_WRITE)$/ });
    plan.on = false;
    fold.applyPage(events.slice(3));
    fold.flush();
    assert.deepStrictEqual(JSON.parse(JSON.stringify(store.load<Things>(things.name)!.state)), foldTo(events, 4));
    real.close();
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

  it("a rebuild's whole-state checkpoint is read back whole, and a fold started on it saves it as rows at its first flush, moved or not", () => {
    const db = new Database(':memory:');
    const store = CheckpointStore.on(db);
    const events = recorded(
      [
        { op: 'put', key: 'a', v: 1 },
        { op: 'put', key: 'b', v: 2 },
        // Serialised ahead as UTF-8 bytes: a key outside ASCII (and the BMP) must come back as it went.
        { op: 'put', key: 'ñ-🙂', v: 3 },
        { op: 'remove', key: 'a' },
      ],
      [],
    );
    const rebuilt = new StateFold(things, things.initialState());
    rebuilt.applyPage(events);
    rebuilt.serialiseCheckpoint();
    rebuilt.saveCheckpointsTo(store, { whole: true });
    rebuilt.flush();
    // Stored as text, the same text a string save writes: readable by SQL's JSON functions and by older code.
    const row = db.prepare('SELECT typeof(state) AS type, state FROM checkpoints WHERE name = ?').get(things.name) as { type: string; state: string };
    assert.deepStrictEqual([row.type, row.state], ['text', JSON.stringify(foldTo(events, 4))]);
    const stored = store.load<Things>(things.name)!;
    assert.deepStrictEqual([stored.savedAs, stored.position], ['whole', 4]);
    assert.deepStrictEqual(JSON.parse(JSON.stringify(stored.state)), foldTo(events, 4));
    const server = new StateFold(things, stored.state, { checkpoints: store, stored: stored.savedAs });
    server.flush();
    const rows = store.load<Things>(things.name)!;
    assert.deepStrictEqual([rows.savedAs, rows.position], ['entities', 4]);
    assert.deepStrictEqual(JSON.parse(JSON.stringify(rows.state)), foldTo(events, 4));
    db.close();
  });

  it("a rebuild's whole-state save replaces a checkpoint saved by entities, a damaged one too (what `ledger-cli rebuild` repairs)", () => {
    const db = new Database(':memory:');
    const store = CheckpointStore.on(db);
    const events = recorded(
      [
        { op: 'put', key: 'a', v: 1 },
        { op: 'put', key: 'b', v: 2 },
      ],
      [],
    );
    const server = new StateFold(things, things.initialState(), { checkpoints: store });
    server.applyPage(events);
    server.flush();
    db.prepare("UPDATE checkpoint_entities SET body = '{\"v\":99,\"lastPosition\":1}' WHERE collection = 'items' AND key = 'a'").run();
    const rebuilt = new StateFold(things, things.initialState());
    rebuilt.applyPage(events);
    rebuilt.saveCheckpointsTo(store, { whole: true });
    rebuilt.flush();
    assert.deepStrictEqual(JSON.parse(JSON.stringify(store.load<Things>(things.name)!.state)), foldTo(events, 2));
    db.close();
  });

  it('a state checkpointed whole by an earlier version is loaded, and saved entity by entity from then on', () => {
    const db = new Database(':memory:');
    const store = CheckpointStore.on(db);
    const events = recorded([{ op: 'put', key: 'a', v: 1 }, { op: 'count' }, { op: 'put', key: 'b', v: 2 }], []);
    store.save(things.name, 2, foldTo(events, 2), new Date(0));
    const stored = store.load<Things>(things.name)!;
    assert.equal(stored.savedAs, 'whole');
    const fold = new StateFold(things, stored.state, { checkpoints: store, stored: stored.savedAs });
    fold.applyPage(events.slice(2));
    fold.flush();
    const now = store.load<Things>(things.name)!;
    assert.equal(now.savedAs, 'entities');
    assert.deepStrictEqual(JSON.parse(JSON.stringify(now.state)), foldTo(events, 3));
    // The whole-state row is gone: an older version finds no checkpoint and folds from position 0, never a stale one.
    assert.equal(db.prepare('SELECT COUNT(*) FROM checkpoints WHERE name = ?').pluck().get(things.name), 0);
    db.close();
  });
});
