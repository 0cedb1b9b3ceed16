/**
 * The audit index files a lease's renewal, release and expiry (which name only the
 * address and the lease) under the lease's owner, exactly as the live stream does: for
 * every event of generated histories (leases granted, renewed, released and expired,
 * owners ended, whole models destroyed, the cascade releasing their orphans), the
 * index's node, token, controller and model are auditFieldsInView's answer from the
 * ledger view folded through that event (the live stream's fieldsOf). Checked for an
 * index folded live in pages with a restart in the middle (its memory lost, its tables
 * kept), and for a rebuild from position 0.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import type { RecordedEvent } from '@ledger/event-store';
import { storeHolding } from '@ledger/event-store/testing';
import { ledgerProjection } from '../ledger-view/ledger-projection';
import { UNTRACKED } from '../runtime/collection-changes';
import { ReadModelTables } from '../runtime/read-model-tables';
import { auditFieldsInView } from './audit-fields-in-view';
import { AuditIndexProjector } from './audit-index-projector';
import { AuditIndexReader } from './audit-index-reader';
import { AUDIT_INDEX, auditTableNames } from './audit-index-tables';
import { modelLeaseActionsArb, modelLeaseLog } from './testing/model-lease-history';

type Filed = { position: number; node_id: string | null; token: string | null; controller: string | null; model: string | null };

const LEASE_ENDINGS = new Set(['LeaseRenewed', 'LeaseReleased', 'LeaseExpired']);

/** What the live stream files each event under: the ledger view folded through it. */
const liveStreamFiling = (log: RecordedEvent[]): Filed[] => {
  const view = ledgerProjection.initialState();
  return log.map((event) => {
    ledgerProjection.apply(view, event, UNTRACKED);
    const { fields } = auditFieldsInView(view, event);
    return { position: event.position, node_id: fields.nodeId, token: fields.token, controller: fields.controller, model: fields.model };
  });
};

const indexFiling = (db: Database.Database): Filed[] => {
  const current = new ReadModelTables(db).current(AUDIT_INDEX)!;
  return db
    .prepare(`SELECT position, node_id, token, controller, model FROM "${auditTableNames(current.generation).events}" ORDER BY position`)
    .all() as Filed[];
};

const inPages = (events: RecordedEvent[], size: number): RecordedEvent[][] =>
  Array.from({ length: Math.ceil(events.length / size) }, (_, i) => events.slice(i * size, (i + 1) * size));

describe('the audit index files lease events under their owner, as the live stream does', () => {
  it('live (restarted midway) and rebuilt from 0 agree with the live stream on every event', async () => {
    const seen = { LeaseRenewed: 0, LeaseReleased: 0, LeaseExpired: 0, ownerEnded: 0 };
    await fc.assert(
      fc.asyncProperty(modelLeaseActionsArb, fc.integer({ min: 1, max: 7 }), fc.double({ min: 0, max: 1, noNaN: true }), async (actions, pageSize, cut) => {
        const log = modelLeaseLog(actions);
        const expected = liveStreamFiling(log);

        // Live: folded in pages, then a restart (a new projector on the same file, nothing in memory), a page replayed.
        const live = new Database(':memory:');
        const half = Math.floor(log.length * cut);
        const before = AuditIndexProjector.live(live);
        for (const page of inPages(log.slice(0, half), pageSize)) before.applyPage(page);
        const after = AuditIndexProjector.live(live);
        for (const page of inPages(log.slice(Math.max(0, half - pageSize)), pageSize)) after.applyPage(page);
        assert.deepEqual(indexFiling(live), expected);

        // A rebuild from position 0, bulk-loaded and promoted.
        const rebuilt = new Database(':memory:');
        const fresh = AuditIndexProjector.fresh(rebuilt, { deferIndexes: true });
        for (const page of inPages(log, 500)) fresh.applyPage(page);
        fresh.promote();
        assert.deepEqual(indexFiling(rebuilt), expected);

        // And the filter a reviewer uses finds every event of a model, its leases' endings included.
        const held = await storeHolding(log);
        try {
          const reader = new AuditIndexReader(live, held.store);
          for (const { controller, model } of [
            { controller: 'c1', model: 'web' },
            { controller: 'c2', model: 'web' },
          ]) {
            const page = await reader.events({ controller, model, limit: 10_000 });
            assert.deepEqual(
              page.events.map((json) => (JSON.parse(json) as RecordedEvent).position),
              expected.filter((filed) => filed.controller === controller && filed.model === model).map((filed) => filed.position),
            );
          }
        } finally {
          await held.done();
        }

        for (const event of log) {
          if (!LEASE_ENDINGS.has(event.type) || expected[event.position - 1].model === null) continue;
          seen[event.type as keyof typeof seen]++;
          if ((event.data as { reason?: string }).reason === 'owner_ended') seen.ownerEnded++;
        }
        live.close();
        rebuilt.close();
      }),
      { numRuns: 150 },
    );
    // Not vacuous: the histories did renew, release (the cascade's too) and expire leases of models.
    for (const [kind, count] of Object.entries(seen)) assert.ok(count > 0, `no ${kind} of a model's lease was generated`);
  });
});
