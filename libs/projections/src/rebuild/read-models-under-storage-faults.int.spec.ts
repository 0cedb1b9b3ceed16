/**
 * Issue 11, point 1: no read model, checkpoint or process manager moves past an event
 * it did not apply. Every read model follows a generated log through a read-model
 * database whose writes fail at random points (SQLITE_FULL, SQLITE_IOERR_WRITE, at a
 * statement or at COMMIT); once the faults stop, each one must equal a rebuild from
 * zero: the ledger view and its checkpoint, every snapshot, every audit row, and the
 * lease cascade's state and checkpoint.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { RecordedEvent } from '@ledger/event-store';
import { ledgerProjection } from '../ledger-view/ledger-projection';
import { AuditIndexProjector } from '../audit/audit-index-projector';
import { LeaseCascadeRunner, LEASE_CASCADE_CHECKPOINT } from '../lease-cascade/lease-cascade-runner';
import { cascadeStep } from '../lease-cascade/cascade-step';
import { initialCascadeState, type CascadeRelease } from '../lease-cascade/cascade-state';
import { CheckpointStore } from '../runtime/checkpoint-store';
import { openReadModelDatabase } from '../runtime/read-model-database';
import { ProjectionRunner } from '../runtime/projection-runner';
import { ProjectorRunner } from '../runtime/projector-runner';
import { faultPlan, faultyDatabase } from '../runtime/testing/faulty-database';
import { verifyReadModels } from './verify-read-models';
import { appenderTo, appendsOf, generatedHistoriesArb } from './testing/generated-log';
import { openLedgerFiles } from './testing/ledger-files';

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('read models on a disk that fails writes at random', () => {
  it('after the faults stop, every read model equals a rebuild from zero', async () => {
    let injected = 0;
    await fc.assert(
      fc.asyncProperty(
        generatedHistoriesArb(30),
        fc.integer({ min: 1, max: 6 }),
        fc.integer(),
        fc.constantFrom(0.05, 0.2, 0.5),
        async (histories, snapshotEvery, seed, probability) => {
          const files = await openLedgerFiles('ledger-storage-faults-');
          const { dir, store, db } = files;
          const plan = faultPlan(seed, probability);
          const faulty = faultyDatabase(db, plan);
          const released: CascadeRelease[] = [];
          const quiet = () => undefined;
          const view = new ProjectionRunner(store, CheckpointStore.on(faulty), ledgerProjection, {
            snapshotEvery,
            pageSize: 3,
            checkpointEveryMs: 2,
            retryMs: 2,
            onError: quiet,
          });
          const audit = new ProjectorRunner(store, AuditIndexProjector.live(faulty), { pageSize: 4, retryMs: 2, onError: quiet });
          const cascade = new LeaseCascadeRunner(
            store,
            CheckpointStore.on(faulty),
            { release: async (release) => void released.push(release) },
            { checkpointEveryMs: 2, onError: quiet },
          );
          try {
            plan.on = true;
            view.start();
            audit.start();
            cascade.start();
            await appenderTo(store)(appendsOf(histories));
            // Let the followers meet faults on the whole log, then give the disk its room back.
            await new Promise((resolve) => setTimeout(resolve, 20));
            plan.on = false;
            assert.ok(await view.catchUp(30_000), 'the view caught up once the faults stopped');
            assert.ok(await audit.catchUp(30_000), 'the audit index caught up');
            assert.ok(await cascade.catchUp(30_000), 'the lease cascade caught up');
            await view.stop();
            await audit.stop();
            await cascade.stop();

            const log: RecordedEvent[] = await store.readAll({ maxCount: 100_000 });
            const head = log.length > 0 ? log[log.length - 1].position : 0;

            // Ledger view (its checkpoint), audit rows and every snapshot, against a rebuild into a scratch file.
            const scratch = openReadModelDatabase(join(dir, 'scratch.sqlite'));
            try {
              const verified = await verifyReadModels({ store, live: db, scratch, snapshotSamples: Infinity });
              assert.deepStrictEqual(verified.differences, []);
              assert.equal(verified.checked.viewAt, head, 'the view checkpoint reached the head');
              assert.equal(verified.checked.auditRowsTo, head, 'the audit index reached the head');
            } finally {
              scratch.close();
            }

            // The lease cascade: its checkpoint equals the cascade folded from zero, and no release was skipped.
            const fromZero = initialCascadeState();
            const expected: CascadeRelease[] = [];
            for (const event of log) expected.push(...cascadeStep(fromZero, event));
            assert.deepStrictEqual(plain(CheckpointStore.on(db).load(LEASE_CASCADE_CHECKPOINT)?.state ?? initialCascadeState()), plain(fromZero));
            assert.deepStrictEqual(released, expected, 'every release asked for, in order, none skipped');
          } finally {
            injected += plan.injected;
            plan.on = false;
            await view.stop();
            await audit.stop();
            await cascade.stop();
            await files.close();
          }
        },
      ),
      { numRuns: 30, includeErrorInReport: true, endOnFailure: true },
    );
    assert.ok(injected > 0, 'faults were injected');
  });
});
