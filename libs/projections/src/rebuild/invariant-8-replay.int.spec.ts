/**
 * Invariant 8: replaying the log from the start gives exactly the live read models.
 * Histories come from the domain's own generators, decided by the real node decider,
 * appended to a real SQLite store; the read models are built live (following the log
 * while it is written, stopped and restarted from their checkpoints in the middle)
 * and compared with a rebuild from zero, and `state at P` (from snapshots) with a
 * fresh fold up to P, for every P.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { RecordedEvent } from '@ledger/event-store';
import { ledgerProjection } from '../ledger-view/ledger-projection';
import { UNTRACKED } from '../runtime/collection-changes';
import { AuditIndexProjector } from '../audit/audit-index-projector';
import { CheckpointStore } from '../runtime/checkpoint-store';
import { openReadModelDatabase } from '../runtime/read-model-database';
import { ProjectionRunner } from '../runtime/projection-runner';
import { ProjectorRunner } from '../runtime/projector-runner';
import { SnapshotReader } from '../runtime/snapshots/snapshot-reader';
import { stateAt } from '../time-travel/state-at';
import { verifyReadModels } from './verify-read-models';
import { appenderTo, appendsOf, generatedHistoriesArb } from './testing/generated-log';
import { openLedgerFiles } from './testing/ledger-files';

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const foldFromZero = (events: RecordedEvent[], upTo = Infinity) => {
  const state = ledgerProjection.initialState();
  for (const event of events) if (event.position <= upTo) ledgerProjection.apply(state, event, UNTRACKED);
  return state;
};

describe('invariant 8: the live read models are a replay of the log', () => {
  it('live (with a restart in the middle) equals rebuilt from zero, and state at P equals a fresh fold to P, for every P', async () => {
    await fc.assert(
      fc.asyncProperty(
        generatedHistoriesArb(40),
        fc.integer({ min: 1, max: 9 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (histories, snapshotEvery, cut) => {
          const files = await openLedgerFiles('ledger-invariant-8-');
          const { dir, store, db } = files;
          try {
            const appends = appendsOf(histories);
            const writeAppends = appenderTo(store);
            const half = Math.floor(appends.length * cut);
            const startRunners = () => {
              const view = new ProjectionRunner(store, CheckpointStore.on(db), ledgerProjection, { snapshotEvery, pageSize: 7 });
              const audit = new ProjectorRunner(store, AuditIndexProjector.live(db), { pageSize: 5 });
              view.start();
              audit.start();
              return { view, audit };
            };

            // First half while the read models follow live, then stop them (they checkpoint) and restart from the checkpoints.
            let runners = startRunners();
            await writeAppends(appends.slice(0, half));
            assert.ok((await runners.view.catchUp(10_000)) && (await runners.audit.catchUp(10_000)), 'caught up before the restart');
            await runners.view.stop();
            await runners.audit.stop();
            runners = startRunners();
            await writeAppends(appends.slice(half));
            assert.ok((await runners.view.catchUp(10_000)) && (await runners.audit.catchUp(10_000)), 'caught up after the restart');
            const live = plain(runners.view.state);
            await runners.view.stop();
            await runners.audit.stop();

            const log = await store.readAll({ maxCount: 100_000 });
            assert.deepStrictEqual(live, plain(foldFromZero(log)), 'the live view equals the fold from zero');
            assert.deepStrictEqual(plain(CheckpointStore.on(db).load(ledgerProjection.name)?.state), live, 'the checkpoint holds exactly the live view');

            // Every read model at once, against a rebuild into a scratch database: view, audit rows, every snapshot.
            const scratch = openReadModelDatabase(join(dir, 'scratch.sqlite'));
            try {
              const verified = await verifyReadModels({ store, live: db, scratch, snapshotSamples: Infinity });
              assert.deepStrictEqual(verified.differences, []);
              assert.equal(verified.events, log.length);
            } finally {
              scratch.close();
            }

            // Time travel from the snapshots equals a fresh fold, at every position.
            const snapshots = new SnapshotReader(db, ledgerProjection.name);
            const head = log.length > 0 ? log[log.length - 1].position : 0;
            for (let position = 0; position <= head; position++) {
              const travelled = await stateAt(store, ledgerProjection, position, snapshots);
              assert.deepStrictEqual(plain(travelled.state), plain(foldFromZero(log, position)), `state at ${position}`);
            }
          } finally {
            await files.close();
          }
        },
      ),
      { numRuns: 40, includeErrorInReport: true },
    );
  });
});
