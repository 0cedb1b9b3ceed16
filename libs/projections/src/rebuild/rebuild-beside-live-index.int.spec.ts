/**
 * A CLI rebuild (another connection to the read-model file) while the ledger keeps
 * indexing: the events the live audit index took in after the rebuild read the head
 * must not vanish with the switch. Found as a flaky "rows missing from the live index"
 * in the replay-tools e2e test; here the interleaving is made deterministic.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SqliteEventStore } from '@ledger/event-store';
import { AuditIndexProjector } from '../audit/audit-index-projector';
import { AUDIT_INDEX } from '../audit/audit-index-tables';
import { openReadModelDatabase } from '../runtime/read-model-database';
import { ProjectorRunner } from '../runtime/projector-runner';
import { ReadModelTables } from '../runtime/read-model-tables';
import { appenderTo, appendsOf, generatedHistoriesArb } from './testing/generated-log';
import { rebuildReadModels } from './rebuild-read-models';
import { verifyReadModels } from './verify-read-models';

const setUp = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-rebuild-beside-'));
  const store = await SqliteEventStore.open({ file: join(dir, 'events.sqlite'), synchronous: 'NORMAL', pollIntervalMs: 5 });
  const file = join(dir, 'read-models.sqlite');
  const db = openReadModelDatabase(file);
  const audit = new ProjectorRunner(store, AuditIndexProjector.live(db), { pageSize: 4, retryMs: 10 });
  const [first, during, after] = fc.sample(generatedHistoriesArb(40), { numRuns: 3, seed: 11 }).map(appendsOf);
  const write = appenderTo(store);
  const verify = async () => {
    const scratch = openReadModelDatabase(join(dir, `scratch-${Date.now()}.sqlite`));
    try {
      return await verifyReadModels({ store, live: db, scratch });
    } finally {
      scratch.close();
    }
  };
  const tearDown = async () => {
    await audit.stop();
    db.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  };
  return { store, eventFile: join(dir, 'events.sqlite'), file, db, audit, write, first, during, after, verify, tearDown };
};

describe('a rebuild beside a live audit index', () => {
  for (const onWorker of [false, true]) {
    it(`promotes its generations only once they have caught up with the ones the live ledger kept writing${onWorker ? ' (audit index on a second thread)' : ''}`, async () => {
      const t = await setUp();
      try {
        await t.write(t.first);
        t.audit.start();
        assert.ok(await t.audit.catchUp(20_000));
        // The rebuild read the head here, then the ledger took more commands and indexed them.
        const headWhenRebuildStarted = await t.store.headPosition();
        await t.write(t.during);
        assert.ok(await t.audit.catchUp(20_000));
        const indexedBeforeSwitch = t.audit.position;
        assert.ok(indexedBeforeSwitch > headWhenRebuildStarted);

        const cli = openReadModelDatabase(t.file, { mode: 'bulk' });
        try {
          const rebuilt = await rebuildReadModels({
            store: t.store,
            db: cli,
            snapshotEvery: 0,
            until: headWhenRebuildStarted,
            auditOnWorker: onWorker ? { eventFile: t.eventFile, ledgerUpcasters: false } : undefined,
          });
          assert.equal(rebuilt.position, indexedBeforeSwitch, 'the new generation caught up with the one it replaced');
        } finally {
          cli.close();
        }
        await t.write(t.after);
        assert.ok(await t.audit.catchUp(20_000));
        const verified = await t.verify();
        assert.deepStrictEqual(verified.differences, []);
        assert.equal(verified.checked.auditRowsTo, await t.store.headPosition());
      } finally {
        await t.tearDown();
      }
    });
  }

  it('a live index whose generation is promoted behind it indexes the missing events again rather than skipping them', async () => {
    const t = await setUp();
    try {
      await t.write(t.first);
      t.audit.start();
      assert.ok(await t.audit.catchUp(20_000));
      const behind = await t.store.headPosition();
      await t.write(t.during);
      assert.ok(await t.audit.catchUp(20_000));

      // Another writer (an older CLI, say) promotes a generation folded only to `behind`.
      const other = openReadModelDatabase(t.file);
      try {
        const stale = AuditIndexProjector.fresh(other);
        stale.applyPage(await t.store.readAll({ fromPosition: 0, maxCount: behind }));
        assert.equal(stale.position, behind);
        stale.promote();
      } finally {
        other.close();
      }
      await t.write(t.after);
      const head = await t.store.headPosition();
      assert.ok(await t.audit.catchUp(20_000));
      assert.equal(new ReadModelTables(t.db).current(AUDIT_INDEX)!.position, head);
      const verified = await t.verify();
      assert.deepStrictEqual(verified.differences, []);
      assert.equal(verified.checked.auditRowsTo, head);
    } finally {
      await t.tearDown();
    }
  });
});
