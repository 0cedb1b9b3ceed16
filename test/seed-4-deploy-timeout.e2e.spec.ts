/**
 * Seed 4, the deployment that never finishes: like a failed power sync, it is automatic
 * trouble, so it is a *fault* (deploy_timeout), never maintenance; it keeps nobody from
 * ending the allocation, and it clears itself when the deployment finishes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PATIENCE_MS, until } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { streamEvents, useLedger } from './support/lifecycle';
import type { Acquired } from './support/answers';

describe('seed 4: a deployment that never finishes faults the node, and the fault clears itself', () => {
  const started = useLedger({ env: { LEDGER_DEPLOY_TIMEOUT_SECONDS: '1' } });
  const faultsOf = async (nodeId: string) => (await started().get(`/v1/nodes/${nodeId}`)).body.faults as { name: string; token?: string }[];
  /** The node's faults, once it has one. */
  const faulted = (nodeId: string) =>
    until(
      async () => {
        const faults = await faultsOf(nodeId);
        assert.ok(faults.length > 0, `${nodeId} has no fault yet`);
        return faults;
      },
      PATIENCE_MS,
      `a fault on ${nodeId}`,
    );

  it('faults a stuck deployment (deploy_timeout) once, and clears it when the deployment finishes', async () => {
    const ledger = started();
    await enlist(ledger, 'node-20');
    const acquired = await ledger.post<Acquired>('/v1/allocations', {
      requestId: newRequestId(),
      consumer: consumer('juju', 'default', '0'),
      nodeId: 'node-20',
    });
    const token: string = acquired.body.token;
    await ledger.post(`/v1/allocations/${token}/deploying`, {});

    const faults = await faulted('node-20');
    assert.deepEqual(
      faults.map((f) => f.name),
      ['deploy_timeout'],
    );
    assert.equal(faults[0].token, token);
    const node = await ledger.get('/v1/nodes/node-20');
    assert.equal(node.body.status, 'deploying');
    assert.equal(node.body.maintenance, null);
    await new Promise((resolve) => setTimeout(resolve, 300)); // a few more ticks

    const deployed = await ledger.post(`/v1/allocations/${token}/deployed`, {});
    assert.equal(deployed.status, 200);
    const after = await ledger.get(`/v1/nodes/node-20?minPosition=${deployed.body.position}`);
    assert.deepEqual(after.body.faults, []);
    assert.equal(after.body.status, 'deployed');
    const events = await streamEvents(ledger.dataDir, 'node-node-20');
    assert.deepEqual(
      events.map((e) => e.type),
      ['NodeEnlisted', 'NodeAcquired', 'DeploymentStarted', 'NodeFaulted', 'NodeDeployed', 'FaultCleared'],
      'the timer faults once, however often it ticks',
    );
    assert.equal(events[3].metadata.actor, 'system:deploy-timeout-monitor');
  });

  it('a timed-out allocation can be released at once; the fault goes with it and nothing is left pending', async () => {
    const ledger = started();
    await enlist(ledger, 'node-21');
    const acquired = await ledger.post<Acquired>('/v1/allocations', {
      requestId: newRequestId(),
      consumer: consumer('juju', 'default', '1'),
      nodeId: 'node-21',
    });
    const token: string = acquired.body.token;
    await ledger.post(`/v1/allocations/${token}/deploying`, {});
    await faulted('node-21');

    const release = await ledger.post(`/v1/allocations/${token}/release`, {});
    assert.equal(release.status, 200);
    assert.equal(release.body.pendingCleanup, undefined);
    const node = await ledger.get(`/v1/nodes/node-21?minPosition=${release.body.position}`);
    assert.deepEqual(node.body.faults, []);
    assert.equal(node.body.status, 'ready');
    const again = await ledger.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('juju', 'default', '2'), nodeId: 'node-21' });
    assert.equal(again.status, 201);
  });
});
