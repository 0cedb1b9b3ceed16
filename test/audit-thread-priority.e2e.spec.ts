/**
 * Issue 16: the audit index is background work. Its thread runs at a lower priority than the
 * ledger's other threads (10 nice steps, AUDIT_THREAD_NICE), so that under load the
 * cores go to request handling and the store's writer first; it still indexes every
 * command, and a reader waiting for one still gets it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import type { LedgerProcess } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { useLedger } from './support/lifecycle';
import type { Acquired, Schema } from './support/answers';

/** A thread's nice value as the kernel keeps it: the 19th field of its stat line (after the name, which may hold spaces). */
const niceOf = (pid: number, threadId: number): number => Number(readFileSync(`/proc/${pid}/task/${threadId}/stat`, 'utf8').split(') ')[1].split(' ')[16]);

const niceByThread = (pid: number): Map<number, number> => {
  const threads = new Map<number, number>();
  for (const id of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(Number(id), niceOf(pid, Number(id)));
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return threads;
};

/** The thread id the ledger said its audit index thread runs on (its start-up line). */
const auditThreadOf = async (ledger: LedgerProcess): Promise<{ threadId: number; nice: number }> => {
  await ledger.waitForLog(/the audit index thread yields the cores to requests/);
  const line = ledger.logs.split('\n').find((text) => text.includes('the audit index thread yields the cores to requests'))!;
  const { threadId, nice } = JSON.parse(line) as { threadId: number; nice: number };
  return { threadId, nice };
};

describe('the audit index thread’s priority', () => {
  describe('by default', () => {
    const started = useLedger();

    it(
      'is lowered for that thread alone, and the index still follows every command',
      { skip: niceOf(process.pid, process.pid) >= 19 && 'the tests already run at nice 19: nothing is below it' },
      async () => {
        const ledger = started();
        const { threadId, nice } = await auditThreadOf(ledger);
        // The ledger starts at this test's own priority (a busy machine may run it niced); its index thread 10 steps below, at most 19.
        const processNice = niceOf(process.pid, process.pid);
        const lowered = Math.min(19, processNice + 10);
        assert.equal(nice, lowered);
        const threads = niceByThread(ledger.pid);
        assert.equal(threads.get(threadId), lowered, 'the thread the ledger named is 10 steps lower');
        assert.equal(threads.get(ledger.pid), processNice, 'the main thread, which handles requests, keeps its priority');
        assert.deepEqual(
          [...threads].filter(([, value]) => value !== processNice).map(([id]) => id),
          [threadId],
          'no other thread of the ledger was lowered',
        );

        await enlist(ledger, 'prio-1');
        const acquired = await ledger.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('c', 'm'), nodeId: 'prio-1' });
        assert.equal(acquired.status, 201);
        const events = await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?nodeId=prio-1&minPosition=${acquired.body.position}`);
        assert.equal(events.status, 200);
        assert.deepEqual(
          events.body.events.map((event: { type: string }) => event.type),
          ['NodeEnlisted', 'AcquireRouted', 'NodeAcquired'],
        );
      },
    );
  });
});
