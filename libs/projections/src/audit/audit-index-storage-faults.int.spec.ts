/**
 * Issue 11's lost audit row: the disk filled while a page of the audit index was being
 * committed, the retry resumed after that page, and its events were never indexed.
 * A failed commit must leave the index's position where the disk has it.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteEventStore } from '@ledger/event-store';
import { testEvents } from '../../../event-store/src/embedded/testing/test-events';
import { openReadModelDatabase } from '../runtime/read-model-database';
import { ProjectorRunner } from '../runtime/projector-runner';
import { ReadModelTables } from '../runtime/read-model-tables';
import { faultPlan, faultyDatabase } from '../runtime/testing/faulty-database';
import { AuditIndexProjector } from './audit-index-projector';
import { AUDIT_INDEX, auditTableNames } from './audit-index-tables';

describe('audit index on a disk that fills up', () => {
  it('a page whose commit failed is indexed again on the retry: no row is lost', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ledger-audit-faults-'));
    const store = await SqliteEventStore.open({ file: join(dir, 'events.sqlite'), pollIntervalMs: 5 });
    const db = openReadModelDatabase(join(dir, 'read-models.sqlite'));
    let runner: ProjectorRunner<AuditIndexProjector> | null = null;
    try {
      await store.appendToStream('node-a', testEvents(5), 'any');
      const plan = { ...faultPlan(1, 1), onlyAtCommit: true };
      const errors: unknown[] = [];
      runner = new ProjectorRunner(store, AuditIndexProjector.live(faultyDatabase(db, plan)), {
        retryMs: 5,
        // The disk has room again once the first commit failed.
        onError: (error) => {
          errors.push(error);
          plan.on = false;
        },
      });
      plan.on = true;
      runner.start();
      assert.ok(await runner.catchUp(20_000), 'the index caught up after the fault');
      await store.appendToStream('node-a', testEvents(2), 'any');
      assert.ok(await runner.catchUp(20_000), 'and follows the log afterwards');
      assert.equal(plan.injected, 1, 'exactly one commit failed');
      assert.equal((errors[0] as { code?: string }).code !== undefined, true);

      const current = new ReadModelTables(db).current(AUDIT_INDEX)!;
      const rows = db.prepare(`SELECT position FROM "${auditTableNames(current.generation).events}" ORDER BY position`).pluck().all();
      assert.deepEqual(rows, [1, 2, 3, 4, 5, 6, 7], 'every event of the log has its row');
      assert.equal(current.position, 7);
    } finally {
      await runner?.stop();
      db.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
