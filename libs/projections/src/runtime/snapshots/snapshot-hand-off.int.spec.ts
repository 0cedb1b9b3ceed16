/**
 * A rebuild's fold hands its snapshots, all their rows serialised, to its audit-index
 * thread, which writes them in order through its own connection whenever the write lock is
 * free; once the thread is done the fold writes its own again. Neither way may change a
 * row: every snapshot loads as the fold up to its position, whoever wrote it, whenever the
 * lock was taken, and whatever writes failed on the way (a full disk).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import type { RecordedEvent } from '@ledger/event-store';
import { UNTRACKED } from '../collection-changes';
import type { Projection } from '../projection';
import { openReadModelDatabase } from '../read-model-database';
import { ReadModelTables } from '../read-model-tables';
import { StateFold } from '../state-fold';
import { faultPlan, faultyDatabase } from '../testing/faulty-database';
import { SnapshotReader } from './snapshot-reader';
import { snapshotsOf, snapshotTablesOf } from './snapshot-tables';
import { SnapshotWriter } from './snapshot-writer';
import { snapshotStatements, writeTakenSnapshot, type TakenSnapshot } from './taken-snapshot';

interface Shelf {
  position: number;
  items: Record<string, { v: number; lastPosition: number }>;
}

type Op = { op: 'put'; key: string; v: number } | { op: 'remove'; key: string } | { op: 'replace' };

const shelf: Projection<Shelf> = {
  name: 'shelf.v1',
  initialState: () => ({ position: 0, items: {} }),
  apply: (state, event, changes) => {
    const op = event.data as Op;
    if (op.op === 'put') {
      changes.changed('items', op.key, (state.items[op.key] = { v: op.v, lastPosition: event.position }), event.position);
    }
    if (op.op === 'remove') {
      delete state.items[op.key];
      changes.removed('items', op.key, event.position);
    }
    // A whole new collection: the next snapshot must be a keyframe.
    if (op.op === 'replace') state.items = { ...state.items };
    state.position = event.position;
  },
};

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('put' as const), key: fc.constantFrom('a', 'b', 'c', 'd'), v: fc.nat({ max: 9 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('remove' as const), key: fc.constantFrom('a', 'b', 'c', 'd') }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('replace' as const) }) },
);

const recorded = (ops: Op[]): RecordedEvent[] =>
  ops.map((data, i) => ({
    id: `e${i + 1}`,
    type: data.op,
    stream: 'shelf',
    revision: i,
    position: i + 1,
    recordedAt: new Date((i + 1) * 1000).toISOString(),
    data,
    metadata: { correlationId: 'c', causationId: null, actor: 't', requestId: null, schemaVersion: 1 },
  }));

const foldTo = (events: RecordedEvent[], position: number): Shelf => {
  const state = shelf.initialState();
  for (const event of events) if (event.position <= position) shelf.apply(state, event, UNTRACKED);
  return JSON.parse(JSON.stringify(state)) as Shelf;
};

describe('snapshots handed to another connection to write, then written by their writer again', () => {
  it('are written in order whenever the lock is free, each one the fold up to its position, through failed writes too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-snapshot-hand-off-'));
    let waited = 0;
    let faults = 0;
    try {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(opArb, fc.boolean(), fc.boolean()), { maxLength: 60 }),
          fc.integer({ min: 1, max: 4 }),
          fc.integer(),
          fc.nat(),
          (steps, every, seed, handedFor) => {
            const file = join(dir, `snapshots-${seed}-${steps.length}.sqlite`);
            const db = openReadModelDatabase(file);
            const other = new Database(file);
            // The audit thread's connection: it writes the snapshots handed to it when the lock is free.
            const thread = openReadModelDatabase(file);
            const plan = faultPlan(seed, 0.3);
            try {
              const events = recorded(steps.map(([op]) => op));
              const tables = new ReadModelTables(db);
              const generation = tables.allocate(snapshotsOf(shelf.name));
              const writer = new SnapshotWriter(faultyDatabase(db, plan), shelf.name, { every }, generation);
              const handed: TakenSnapshot[] = [];
              const statements = snapshotStatements(thread, shelf.name, generation);
              const threadTables = new ReadModelTables(thread);
              const writeHanded = () => {
                thread.transaction(() => handed.forEach((snapshot) => writeTakenSnapshot(threadTables, statements, snapshot))).immediate();
                handed.length = 0;
              };
              writer.handOff((snapshot) => handed.push(snapshot));
              // The first events' snapshots are handed off; the rest the writer writes itself.
              const handing = handedFor % (steps.length + 1);
              const fold = new StateFold(shelf, shelf.initialState(), { snapshots: writer });
              steps.forEach(([, locked, failing], i) => {
                if (i === handing) {
                  if (other.inTransaction) other.prepare('COMMIT').run();
                  writeHanded();
                  writer.takeBack();
                }
                // While snapshots are handed off, the other connection takes the lock for this
                // event's fold, or lets it go; the thread writes what it holds whenever it is free.
                if (i < handing) {
                  if (locked && !other.inTransaction) other.prepare('BEGIN IMMEDIATE').run();
                  if (!locked && other.inTransaction) other.prepare('COMMIT').run();
                }
                // Only the writer's own writes can fail: a handed-off fold writes nothing.
                plan.on = failing && i >= handing;
                try {
                  fold.applyPage([events[i]]);
                } catch {
                  // A failed write: the snapshot is owed, taken again before the page is offered again.
                  faults++;
                  assert.ok(fold.owesSnapshot);
                  plan.on = false;
                  fold.applyPage([events[i]]);
                }
                plan.on = false;
                waited = Math.max(waited, handed.length);
                if (i < handing && !other.inTransaction && handed.length > 0) writeHanded();
              });
              if (other.inTransaction) other.prepare('COMMIT').run();
              writeHanded();

              tables.promote(snapshotsOf(shelf.name), generation, snapshotTablesOf(shelf.name));
              const reader = new SnapshotReader(db, shelf.name);
              const crossings = events.filter((event) => Math.floor(event.position / every) > Math.floor((event.position - 1) / every));
              assert.deepStrictEqual(
                reader.positions(),
                crossings.map((event) => event.position),
                'one snapshot per boundary crossed',
              );
              for (const position of reader.positions()) {
                assert.deepStrictEqual(
                  JSON.parse(JSON.stringify(reader.load(position, shelf.initialState))),
                  foldTo(events, position),
                  `snapshot at ${position}`,
                );
              }
            } finally {
              if (other.inTransaction) other.prepare('ROLLBACK').run();
              other.close();
              thread.close();
              db.close();
              for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
            }
          },
        ),
        { numRuns: 150, includeErrorInReport: true },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.ok(waited > 1, 'handed-off snapshots waited for the lock, several at a time');
    assert.ok(faults > 0, 'writes failed on the way');
  });
});
