/**
 * Issue 16: the live audit index folds on a thread of its own. Nothing may change for its
 * readers: the rows it writes equal those the live projector writes on the main thread,
 * whatever the pages; it learns of commits by being poked (no poll needed), catches up on
 * what was there before it started, rebuilds beside itself, and a thread that cannot open
 * its files says so instead of starting.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RebuildInProgressError } from '../../runtime/projector-runner';
import { ReadModelTables } from '../../runtime/read-model-tables';
import { openReadModelDatabase } from '../../runtime/read-model-database';
import { appenderTo, appendsOf, generatedHistoriesArb } from '../../rebuild/testing/generated-log';
import { openLedgerFiles, type LedgerFiles } from '../../rebuild/testing/ledger-files';
import { auditRows, liveProjectorRows } from '../../rebuild/testing/audit-rows';
import { AUDIT_INDEX } from '../audit-index-tables';
import { AuditIndexThread } from './audit-index-thread';
import type { ThreadPriority } from './background-priority';

/** Never polls on its own: whatever it folds, it was told of (poked) or asked for (waitFor). */
const NEVER = 3_600_000;

const startThread = (files: LedgerFiles, errors: Error[] = [], foldIntervalMs = 0, nice = 0) =>
  AuditIndexThread.start(
    {
      eventFile: join(files.dir, 'events.sqlite'),
      readModelFile: join(files.dir, 'read-models.sqlite'),
      minPageIntervalMs: foldIntervalMs,
      pollIntervalMs: NEVER,
      nice,
    },
    {
      onError: (error) => errors.push(error),
      onRestart: (restart) => restart.error && errors.push(restart.error as Error),
      onExit: (error) => errors.push(error),
    },
  );

/** Waits, on the thread's own reports, until it has folded `position` (generous: a busy machine). */
const reaches = async (thread: AuditIndexThread, position: number): Promise<void> => {
  for (let i = 0; i < 3_000 && thread.position < position; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(thread.position >= position, `the thread stayed at ${thread.position}, short of ${position}`);
};

/** A thread on a fresh log of one sampled history, waited on until it has folded all of it (`waitFor`, not a poke). */
const onFoldedSampleLog = async (size: number, seed: number, body: (files: LedgerFiles, thread: AuditIndexThread, head: number) => Promise<void>) => {
  const files = await openLedgerFiles('ledger-audit-thread-');
  const thread = await startThread(files);
  try {
    await appenderTo(files.store)(appendsOf(fc.sample(generatedHistoriesArb(size), { numRuns: 1, seed })[0]));
    const head = await files.store.headPosition();
    assert.equal(await thread.waitFor(head, 30_000), true);
    await body(files, thread, head);
  } finally {
    await thread.stop();
    await files.close();
  }
};

/** A thread's nice value as the kernel keeps it: the 19th field of its stat line (after the name, which may hold spaces). */
const niceOfThread = (threadId: number): number => Number(readFileSync(`/proc/${process.pid}/task/${threadId}/stat`, 'utf8').split(') ')[1].split(' ')[16]);

/**
 * Every thread of this process still running, with its nice value. The threads of earlier
 * tests are terminated without being awaited, so one may end between the listing and the
 * read, or after: it is left out rather than failing the read.
 */
const niceByThread = (): Map<number, number> => {
  const threads = new Map<number, number>();
  for (const id of readdirSync(`/proc/${process.pid}/task`)) {
    try {
      threads.set(Number(id), niceOfThread(Number(id)));
    } catch {
      // Ended between the listing and the read.
    }
  }
  return threads;
};

describe('the live audit index on its own thread', () => {
  it('writes the rows the live projector writes, catching up on what came before it and poked (at most once per fold interval) for what comes after', async () => {
    await fc.assert(
      fc.asyncProperty(
        generatedHistoriesArb(24),
        fc.integer({ min: 0, max: 100 }),
        // Paced, the last commits of a burst are told only by the poke that ends the interval.
        fc.constantFrom(0, 15),
        async (histories, splitPercent, foldIntervalMs) => {
          const files = await openLedgerFiles('ledger-audit-thread-');
          const errors: Error[] = [];
          let thread: AuditIndexThread | null = null;
          try {
            const appends = appendsOf(histories);
            const split = Math.floor((appends.length * splitPercent) / 100);
            const append = appenderTo(files.store);
            await append(appends.slice(0, split));
            thread = await startThread(files, errors, foldIntervalMs);
            const unobserve = files.store.observeCommits(() => thread!.poke());
            await append(appends.slice(split));
            unobserve();
            const head = await files.store.headPosition();
            await reaches(thread, head);
            assert.deepEqual(errors, []);
            assert.deepStrictEqual(auditRows(files.db), await liveProjectorRows(files, head, 3));
          } finally {
            await thread?.stop();
            await files.close();
          }
        },
      ),
      // A failing case waits out `reaches` (30 s): report the first one rather than shrink for minutes.
      { numRuns: 12, includeErrorInReport: true, endOnFailure: true },
    );
  });

  it('leaves a thread already at the lowest priority as it is, and says so', async () => {
    // Its own worker: the thread first takes nice 19 itself, then asks to go lower.
    const worker = new Worker(
      `const { readlinkSync } = require('node:fs');
       const { setPriority } = require('node:os');
       setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 19);
       require('node:worker_threads').parentPort.postMessage(require(${JSON.stringify(require.resolve('./background-priority'))}).lowerThisThreadsPriority(3));`,
      { eval: true },
    );
    const [priority] = (await once(worker, 'message')) as [ThreadPriority];
    await worker.terminate();
    assert.ok('unchanged' in priority, JSON.stringify(priority));
    assert.match(priority.unchanged, /already has the lowest priority \(nice 19\)/);
  });

  it(
    'lowers its own priority, and only its own: the nice steps asked for, while every other thread of the process keeps its own',
    { skip: niceOfThread(process.pid) >= 19 && 'this process already runs at nice 19: nothing is below it' },
    async () => {
      const files = await openLedgerFiles('ledger-audit-thread-');
      const before = niceByThread();
      const thread = await startThread(files, [], 0, 7);
      try {
        const priority = thread.priority;
        assert.ok(priority && 'threadId' in priority, `the thread did not lower its priority: ${JSON.stringify(priority)}`);
        // Seven steps below the process (which a busy machine may itself run niced), at most 19.
        const lowered = Math.min(19, niceOfThread(process.pid) + 7);
        assert.equal(priority.nice, lowered);
        assert.equal(niceOfThread(priority.threadId), lowered);
        const after = niceByThread();
        for (const [threadId, nice] of before) if (after.has(threadId)) assert.equal(after.get(threadId), nice, `thread ${threadId} changed its priority`);
        // Still folds: a lower priority only yields the cores to busier threads.
        await appenderTo(files.store)(appendsOf(fc.sample(generatedHistoriesArb(5), { numRuns: 1, seed: 3 })[0]));
        assert.equal(await thread.waitFor(await files.store.headPosition(), 30_000), true);
      } finally {
        await thread.stop();
        await files.close();
      }
    },
  );

  it('keeps the priority of the process when asked for none', async () => {
    const files = await openLedgerFiles('ledger-audit-thread-');
    const thread = await startThread(files);
    try {
      assert.equal(thread.priority, null);
    } finally {
      await thread.stop();
      await files.close();
    }
  });

  it('folds what a reader waits for at once, and a position the log has not reached times out', () =>
    onFoldedSampleLog(10, 7, async (files, thread, head) => {
      assert.equal(new ReadModelTables(files.db).current(AUDIT_INDEX)?.position, head, 'its checkpoint is in the file the queries read');
      assert.equal(await thread.waitFor(head + 1, 50), false);
    }));

  it('rebuilds into a new generation beside the live one, one rebuild at a time, with the same rows', () =>
    onFoldedSampleLog(20, 11, async (files, thread, head) => {
      const before = new ReadModelTables(files.db).current(AUDIT_INDEX)!;
      const rows = auditRows(files.db);
      const rebuilt = thread.rebuild();
      assert.throws(() => thread.rebuild(), RebuildInProgressError);
      assert.ok(thread.rebuilding, 'a rebuild under way is reported');
      const result = await rebuilt;
      assert.equal(result.position, head);
      assert.equal(thread.rebuilding, null);
      const after = new ReadModelTables(files.db).current(AUDIT_INDEX)!;
      assert.notEqual(after.generation, before.generation);
      assert.deepStrictEqual(auditRows(files.db), rows);
    }));

  it('does not start on a log it cannot open, and says which file', async () => {
    const files = await openLedgerFiles('ledger-audit-thread-');
    try {
      await assert.rejects(
        AuditIndexThread.start(
          {
            eventFile: join(files.dir, 'missing', 'events.sqlite'),
            readModelFile: join(files.dir, 'read-models.sqlite'),
            minPageIntervalMs: 0,
            pollIntervalMs: NEVER,
            nice: 0,
          },
          { onError: () => undefined, onRestart: () => undefined, onExit: () => undefined },
        ),
        {
          message: `the audit index's thread cannot open ${join(files.dir, 'missing', 'events.sqlite')}: Cannot open database because the directory does not exist`,
        },
      );
      const db = openReadModelDatabase(join(files.dir, 'read-models.sqlite'));
      assert.equal(new ReadModelTables(db).current(AUDIT_INDEX), null, 'nothing was written');
      db.close();
    } finally {
      await files.close();
    }
  });
});
