import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SqliteEventStore } from '@ledger/event-store';
import { ledgerProjection } from '../ledger-view/ledger-projection';
import { AuditIndexProjector } from '../audit/audit-index-projector';
import { verifyReadModels } from '../rebuild/verify-read-models';
import { appenderTo, appendsOf, generatedHistoriesArb } from '../rebuild/testing/generated-log';
import { CheckpointStore } from './checkpoint-store';
import { openReadModelDatabase } from './read-model-database';
import { ProjectionRunner } from './projection-runner';
import { ProjectorRunner, RebuildInProgressError } from './projector-runner';

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('rebuilding a read model while it serves', () => {
  it('the old view answers until the new one has caught up with a log that keeps growing; then the new one, equal to a replay', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ledger-rebuild-'));
    const store = await SqliteEventStore.open({ file: join(dir, 'events.sqlite'), synchronous: 'NORMAL', pollIntervalMs: 5 });
    const db = openReadModelDatabase(join(dir, 'read-models.sqlite'));
    const view = new ProjectionRunner(store, CheckpointStore.on(db), ledgerProjection, { snapshotEvery: 5, pageSize: 4 });
    const audit = new ProjectorRunner(store, AuditIndexProjector.live(db), { pageSize: 4 });
    try {
      const [first, more] = fc.sample(generatedHistoriesArb(60), { numRuns: 2, seed: 8 }).map(appendsOf);
      const write = appenderTo(store);
      await write(first);
      view.start();
      audit.start();
      assert.ok((await view.catchUp(10_000)) && (await audit.catchUp(10_000)));
      const old = view.state;

      const oldAnswered: boolean[] = [];
      const rebuilt = view.rebuildFromZero(() => oldAnswered.push(view.state === old));
      const reindexed = audit.rebuild(AuditIndexProjector.rebuildOn(db));
      assert.throws(() => view.rebuildFromZero(), RebuildInProgressError, 'one rebuild at a time');
      assert.equal(view.state, old, 'the old view answers while the new one folds');
      assert.ok(view.rebuilding, 'the rebuild reports its progress');
      assert.equal(view.state, old);
      await write(more); // the log grows under the rebuild
      const [viewResult, auditResult] = await Promise.all([rebuilt, reindexed]);
      assert.ok(oldAnswered.length > 1 && oldAnswered.every(Boolean), 'after every page of the rebuild, the old view still answered');
      assert.notEqual(view.state, old, 'swapped');
      assert.equal(view.rebuilding, null);
      assert.ok(viewResult.position >= first.length && auditResult.position >= first.length);

      assert.ok((await view.catchUp(10_000)) && (await audit.catchUp(10_000)));
      await view.stop();
      await audit.stop();
      const leftovers = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%_g1'").all() as { name: string }[]).map(
        (row) => row.name,
      );
      assert.deepEqual(leftovers, [], 'the old generation of tables is gone');

      const scratch = openReadModelDatabase(join(dir, 'scratch.sqlite'));
      const verified = await verifyReadModels({ store, live: db, scratch, snapshotSamples: Infinity });
      scratch.close();
      assert.deepStrictEqual(verified.differences, []);
      assert.equal(verified.position, await store.headPosition());
      assert.deepStrictEqual(plain(view.state).position, verified.position);
    } finally {
      await view.stop();
      await audit.stop();
      db.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
