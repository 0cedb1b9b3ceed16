/**
 * Issue 10, item 11: reconcile takes the same consumer object as acquire, so a caller
 * passes what it has; the fields that do not apply (machine, agentName, owner) are ignored.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { enlist, newRequestId } from './support/fixtures';
import { useLedger } from './support/lifecycle';
import type { Acquired, Schema } from './support/answers';

describe('POST /v1/reconcile', () => {
  const started = useLedger();

  it('accepts the consumer object an acquire took, machine and all', async () => {
    const ledger = started();
    assert.equal((await enlist(ledger, 'node-rc')).status, 201);
    const consumer = { controller: 'ctl', model: 'model-a', machine: '7', agentName: 'juju', owner: 'admin' };
    const acquired = await ledger.post<Acquired>('/v1/allocations', { requestId: newRequestId('rc'), consumer, nodeId: 'node-rc' });
    assert.equal(acquired.status, 201, JSON.stringify(acquired.body));

    const verdicts = await ledger.post<Schema<'ReconcileResponseDto'>>(`/v1/reconcile?minPosition=${acquired.body.position}`, {
      consumer,
      instances: [{ machine: '7', token: acquired.body.token }],
    });
    assert.equal(verdicts.status, 200, JSON.stringify(verdicts.body));
    assert.equal(verdicts.body.instances[0].verdict, 'valid');
    assert.deepEqual(verdicts.body.consumer, { controller: 'ctl', model: 'model-a' });
  });

  it('still names a consumer field that is wrong', async () => {
    const refused = await started().post<Schema<'ReconcileResponseDto'>>('/v1/reconcile', {
      consumer: { controller: 'ctl', model: 'model-a', machine: 7 },
      instances: [],
    });
    assert.equal(refused.status, 400);
    assert.match(JSON.stringify(refused.body), /machine/);
  });
});
