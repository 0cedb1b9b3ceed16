/**
 * Time travel for one node folds only the node's stream and the address streams its
 * leases live on (found through the audit index), not the whole log. For every node of
 * generated histories (the real deciders, a real SQLite store) and every position, what
 * that fold says about the node (the node, its allocations, devices and leases, and each
 * lease's status then) is exactly what the whole-ledger fold to that position says.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Streams } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import { ledgerProjection } from '../ledger-view/ledger-projection';
import { UNTRACKED } from '../runtime/collection-changes';
import { leaseStatus } from '../ledger-view/lease-queries';
import type { LedgerViewState } from '../ledger-view/views';
import { AuditIndexProjector } from '../audit/audit-index-projector';
import { AuditIndexReader } from '../audit/audit-index-reader';
import { ProjectorRunner } from '../runtime/projector-runner';
import { appenderTo, appendsOf, generatedHistoriesArb } from '../rebuild/testing/generated-log';
import { scopedStateAt } from './scoped-state-at';
import { openLedgerFiles } from '../rebuild/testing/ledger-files';

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const foldFromZero = (events: RecordedEvent[], upTo: number): LedgerViewState => {
  const state = ledgerProjection.initialState();
  for (const event of events) if (event.position <= upTo) ledgerProjection.apply(state, event, UNTRACKED);
  return state;
};

/** What a view says about one node, statuses at `now` included. */
const aboutNode = (view: LedgerViewState, nodeId: string, now: Date) => ({
  node: plain(view.nodes[nodeId] ?? null),
  allocations: plain(Object.values(view.allocations).filter((a) => a.nodeId === nodeId)),
  devices: plain(Object.values(view.devices).filter((d) => d.nodeId === nodeId)),
  leases: Object.values(view.leases)
    .flatMap((ips) =>
      ips.leases.filter((lease) => lease.owner.nodeId === nodeId).map((lease) => ({ lease: plain(lease), status: leaseStatus(view, ips, lease, now) })),
    )
    .sort((a, b) => a.lease.leaseId.localeCompare(b.lease.leaseId)),
});

describe('per-node time travel', () => {
  it("folding only a node's own streams gives what the whole fold gives about it, at every position", async () => {
    await fc.assert(
      fc.asyncProperty(generatedHistoriesArb(30), fc.integer({ min: 0, max: 3_600 }), async (histories, lateBySeconds) => {
        const files = await openLedgerFiles('ledger-scoped-travel-');
        const { store, db } = files;
        try {
          await appenderTo(store)(appendsOf(histories));
          const audit = new ProjectorRunner(store, AuditIndexProjector.live(db), { pageSize: 50 });
          audit.start();
          assert.ok(await audit.catchUp(10_000), 'the audit index caught up');
          await audit.stop();
          const reader = new AuditIndexReader(db, store);
          const log = await store.readAll({ maxCount: 100_000 });
          const head = log.length > 0 ? log[log.length - 1].position : 0;
          const nodeIds = [
            ...new Set(
              log
                .map((event) => event.stream)
                .filter((stream) => stream.startsWith('node-'))
                .map((stream) => stream.slice(5)),
            ),
          ];
          for (let position = 0; position <= head; position++) {
            const whole = foldFromZero(log, position);
            // Statuses that depend on time (lease expiry) are asked at some moment after the position.
            const now = new Date(Date.UTC(2026, 0, 1) + (position + lateBySeconds) * 1000);
            for (const nodeId of nodeIds) {
              const { ips } = reader.scopeOf({ nodeId }, position);
              const scoped = await scopedStateAt(store, { streams: [Streams.node(nodeId), ...ips.map(Streams.ip)] }, position);
              const expected = aboutNode(whole, nodeId, now);
              const actual = aboutNode(scoped.view, nodeId, now);
              assert.deepStrictEqual(actual, expected, `node ${nodeId} at ${position}`);
            }
          }
        } finally {
          await files.close();
        }
      }),
      { numRuns: 25, includeErrorInReport: true },
    );
  });
});
