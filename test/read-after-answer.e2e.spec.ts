/**
 * What a client reads right after an answer reflects that answer, also without
 * `minPosition`: the store tells the read models of a commit while its writer syncs the next
 * one (or within a millisecond), not before the answer goes out, so a query, and an acquire
 * choosing a node from the view, first wait for the view to fold every command the ledger
 * has answered (LedgerViewService.current). A stale view here would hand the caller a node
 * that is taken, refuse an acquire as having no free node, or show an allocation gone.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useLedger } from './support/lifecycle';
import { consumer, enlist, newRequestId } from './support/fixtures';
import type { Acquired, OwnNode, Schema, Health } from './support/answers';

const ROUNDS = 25;

describe('reads right after an answer', () => {
  const started = useLedger();

  it('an acquire by constraints finds the node the answer before it released, and queries without minPosition show each answer', async () => {
    const ledger = started();
    await enlist(ledger, 'solo', { tags: ['read-after-answer'] });
    const holder = consumer('ctl-raa', 'model-raa');
    for (let round = 0; round < ROUNDS; round++) {
      const acquired = await ledger.post<Acquired>('/v1/allocations', {
        requestId: newRequestId('raa'),
        consumer: holder,
        constraints: { tags: ['read-after-answer'] },
      });
      assert.equal(acquired.status, 201, `round ${round}: the node released just before is free: ${JSON.stringify(acquired.body)}`);
      assert.equal(acquired.body.nodeId, 'solo');
      const token = acquired.body.token as string;

      const held = await ledger.get<OwnNode>('/v1/nodes/solo');
      assert.equal(held.body.allocation?.token, token, `round ${round}: the node shows the allocation just answered`);
      const allocation = await ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${token}`);
      assert.equal(allocation.status, 200, `round ${round}: the allocation just answered is found: ${JSON.stringify(allocation.body)}`);
      assert.equal(allocation.body.live, true);

      const released = await ledger.post(`/v1/allocations/${token}/release`, { requestId: newRequestId('raa-release') });
      assert.equal(released.status, 200, JSON.stringify(released.body));
      const ended = await ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${token}`);
      assert.equal(ended.body.live, false, `round ${round}: the allocation shows the release just answered: ${JSON.stringify(ended.body)}`);
      assert.equal(ended.body.ending?.kind, 'released');
    }
  });

  it("the health summary counts every answered command in the read models' position", async () => {
    const ledger = started();
    const enlisted = await enlist(ledger, 'counted');
    const health = await ledger.get<Health>('/healthz');
    assert.ok(health.body.readModels.position >= enlisted.body.position, JSON.stringify(health.body));
    assert.equal(health.body.readModels.lag, 0, JSON.stringify(health.body));
  });
});
