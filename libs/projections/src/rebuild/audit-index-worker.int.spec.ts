/**
 * Issue 16, point 4: `ledger-cli rebuild` fills the audit index on a second thread, which
 * writes its pages whenever the write lock is free and builds the indexes itself. None of
 * it may change a row: the audit index a rebuild promotes, thread or not, equals the one
 * the live projector writes page by page (events filed under token consumers and lease
 * owners), and a thread that fails leaves the read models as they were.
 */
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { storageFaultCodeOf } from '@ledger/event-store';
import { AuditIndexProjector } from '../audit/audit-index-projector';
import { AUDIT_INDEX } from '../audit/audit-index-tables';
import { ledgerProjection } from '../ledger-view/ledger-projection';
import { CheckpointStore } from '../runtime/checkpoint-store';
import { openReadModelDatabase } from '../runtime/read-model-database';
import { ReadModelTables } from '../runtime/read-model-tables';
import { snapshotsOf } from '../runtime/snapshots/snapshot-tables';
import { SnapshotReader } from '../runtime/snapshots/snapshot-reader';
import { faultPlan, faultyDatabase } from '../runtime/testing/faulty-database';
import { appenderTo, appendsOf, generatedHistoriesArb } from './testing/generated-log';
import { openLedgerFiles } from './testing/ledger-files';
import { auditRows, liveProjectorRows } from './testing/audit-rows';
import { rebuildReadModels } from './rebuild-read-models';
import type { AuditLoadTask } from './audit-index-worker';
import { verifyReadModels } from './verify-read-models';

describe('the audit index rebuilt on a second thread', () => {
  it('equals the index the live projector writes page by page, and verify finds no difference', async () => {
    await fc.assert(
      fc.asyncProperty(generatedHistoriesArb(30), fc.integer({ min: 1, max: 7 }), fc.boolean(), async (histories, pageSize, tightQueue) => {
        const files = await openLedgerFiles('ledger-audit-worker-');
        try {
          await appenderTo(files.store)(appendsOf(histories));
          const head = await files.store.headPosition();
          const expected = await liveProjectorRows(files, head, pageSize);

          // A tight bound on what the fold may post ahead of the thread: it waits for the thread before every page.
          const queued: number[] = [];
          const rebuilt = await rebuildReadModels({
            store: files.store,
            db: files.db,
            snapshotEvery: 3,
            pageSize,
            auditOnWorker: { eventFile: join(files.dir, 'events.sqlite'), ledgerUpcasters: false },
            maxQueuedChars: tightQueue ? 1 : undefined,
            onQueued: (chars) => queued.push(chars),
          });
          assert.equal(rebuilt.position, head);
          if (tightQueue)
            assert.deepStrictEqual(
              queued.filter((chars) => chars > 1),
              [],
              'never more than the bound queued when a page is posted',
            );
          assert.deepStrictEqual(auditRows(files.db), expected);
          // The thread wrote every snapshot the fold took, its last page's too (positions are dense: one at each multiple of 3).
          assert.deepStrictEqual(
            new SnapshotReader(files.db, ledgerProjection.name).positions(),
            Array.from({ length: Math.floor(head / 3) }, (_, i) => 3 * (i + 1)),
          );

          // And an in-thread bulk load (verify's scratch rebuild) agrees with it row by row.
          const scratch = openReadModelDatabase(join(files.dir, 'scratch.sqlite'), { mode: 'scratch' });
          try {
            const verified = await verifyReadModels({ store: files.store, live: files.db, scratch, snapshotSamples: Infinity });
            assert.deepStrictEqual(verified.differences, []);
            assert.deepStrictEqual(auditRows(scratch), expected);
          } finally {
            scratch.close();
          }
        } finally {
          await files.close();
        }
      }),
      { numRuns: 12, includeErrorInReport: true, endOnFailure: true },
    );
  });

  it('a rebuild ends with every read model in the file itself, not only in its WAL: a copy of the file alone holds them', async () => {
    const files = await openLedgerFiles('ledger-audit-worker-in-file-');
    try {
      const [histories] = fc.sample(generatedHistoriesArb(20), { numRuns: 1, seed: 11 });
      await appenderTo(files.store)(appendsOf(histories));
      const head = await files.store.headPosition();
      await rebuildReadModels({
        store: files.store,
        db: files.db,
        snapshotEvery: 2,
        auditOnWorker: { eventFile: join(files.dir, 'events.sqlite'), ledgerUpcasters: false },
      });
      // What a backup of the file alone (no -wal beside it) would restore.
      const copy = join(files.dir, 'copy.sqlite');
      copyFileSync(files.db.name, copy);
      const alone = new Database(copy, { readonly: true });
      try {
        const current = (db: Database.Database) => db.prepare('SELECT name, generation, position FROM read_model_tables WHERE current = 1 ORDER BY name').all();
        assert.deepStrictEqual(current(alone), current(files.db));
        assert.equal(CheckpointStore.on(alone).load(ledgerProjection.name)?.position, head);
        assert.deepStrictEqual(auditRows(alone), auditRows(files.db));
      } finally {
        alone.close();
      }
    } finally {
      await files.close();
    }
  });

  it('a thread that cannot read the log fails the rebuild and leaves the current read models current', async () => {
    const files = await openLedgerFiles('ledger-audit-worker-fails-');
    try {
      const [histories] = fc.sample(generatedHistoriesArb(20), { numRuns: 1, seed: 5 });
      await appenderTo(files.store)(appendsOf(histories));
      await rebuildReadModels({ store: files.store, db: files.db, snapshotEvery: 2 });
      const tables = new ReadModelTables(files.db);
      const before = { audit: tables.current(AUDIT_INDEX), snapshots: tables.current(snapshotsOf(ledgerProjection.name)), rows: auditRows(files.db) };

      await assert.rejects(
        rebuildReadModels({
          store: files.store,
          db: files.db,
          snapshotEvery: 2,
          auditOnWorker: { eventFile: join(files.dir, 'no-such-log.sqlite'), ledgerUpcasters: false },
        }),
        (error: unknown) => {
          assert.match((error as Error).message, /no-such-log\.sqlite/);
          // The driver's code crosses the thread: the CLI still tells a storage fault from a bug.
          assert.equal(storageFaultCodeOf(error), 'storage_io_error');
          return true;
        },
      );
      assert.deepStrictEqual(tables.current(AUDIT_INDEX), before.audit);
      assert.deepStrictEqual(tables.current(snapshotsOf(ledgerProjection.name)), before.snapshots);
      assert.deepStrictEqual(auditRows(files.db), before.rows);
    } finally {
      await files.close();
    }
  });

  it('a bulk load that finds the write lock taken writes nothing, reads on, and writes it all once free: the same rows', async () => {
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        generatedHistoriesArb(30),
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.boolean(), { minLength: 1 }),
        async (histories, pageSize, locks) => {
          const files = await openLedgerFiles('ledger-audit-bulk-busy-');
          const other = new Database(files.db.name);
          try {
            await appenderTo(files.store)(appendsOf(histories));
            const head = await files.store.headPosition();
            const expected = await liveProjectorRows(files, head, pageSize);

            const bulk = AuditIndexProjector.fresh(files.db, { deferIndexes: true });
            let read = 0;
            for (let page = 0; read < head; page++) {
              const events = await files.store.readAll({ fromPosition: read, maxCount: pageSize });
              bulk.queue(events);
              read = events[events.length - 1].position;
              // Another connection (the rebuild's main thread, writing a snapshot) holds the lock, or lets it go.
              const locked = locks[page % locks.length];
              if (locked && !other.inTransaction) other.prepare('BEGIN IMMEDIATE').run();
              if (!locked && other.inTransaction) other.prepare('COMMIT').run();
              const position = bulk.position;
              if (bulk.writeQueued({ wait: false })) assert.equal(bulk.queuedRows, 0);
              else {
                refused++;
                assert.ok(locked);
                assert.equal(bulk.position, position, 'nothing written while the lock is taken');
              }
            }
            if (other.inTransaction) other.prepare('COMMIT').run();
            bulk.promote();
            assert.equal(bulk.position, head);
            assert.deepStrictEqual(auditRows(files.db), expected);
          } finally {
            if (other.inTransaction) other.prepare('ROLLBACK').run();
            other.close();
            await files.close();
          }
        },
      ),
      { numRuns: 12, includeErrorInReport: true, endOnFailure: true },
    );
    assert.ok(refused > 0, 'writes found the lock taken');
  });

  it("an error of SQLite's in the thread reaches the rebuild with its message and its code", async () => {
    const files = await openLedgerFiles('ledger-audit-worker-sqlite-error-');
    try {
      // A folder where the read-model file should be: SQLite cannot open it (SqliteError, SQLITE_CANTOPEN).
      const task: AuditLoadTask = { eventFile: join(files.dir, 'events.sqlite'), ledgerUpcasters: false, readModelFile: files.dir, until: 0, pageSize: 10 };
      const worker = new Worker(join(__dirname, 'audit-index-worker.js'), { workerData: task });
      const error = await new Promise<unknown>((resolve) => worker.once('error', resolve));
      assert.match(String((error as { message?: unknown }).message), /unable to open database file/);
      assert.equal((error as { code?: unknown }).code, 'SQLITE_CANTOPEN');
    } finally {
      await files.close();
    }
  });

  it('a bulk load whose page failed refuses to go on, rather than index from rows it rolled back', async () => {
    const files = await openLedgerFiles('ledger-audit-bulk-fails-');
    try {
      const [histories] = fc.sample(generatedHistoriesArb(20), { numRuns: 1, seed: 7 });
      await appenderTo(files.store)(appendsOf(histories));
      const log = await files.store.readAll({ maxCount: 10_000 });
      const plan = faultPlan(1, 1);
      const bulk = AuditIndexProjector.fresh(faultyDatabase(files.db, plan), { deferIndexes: true });
      bulk.applyPage(log.slice(0, 5));
      plan.on = true;
      assert.throws(() => bulk.applyPage(log.slice(5, 10)), /SQLITE_FULL|SQLITE_IOERR|disk/i);
      plan.on = false;
      assert.throws(() => bulk.applyPage(log.slice(5, 10)), /a page of this bulk load failed/);
      assert.throws(() => bulk.promote(), /a page of this bulk load failed/);
    } finally {
      await files.close();
    }
  });
});
