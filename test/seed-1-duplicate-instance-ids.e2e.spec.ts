/**
 * Seed 1: a node failed deployment, an operator released it out of band, another
 * model acquired it, and two consumer machines pointed at one node. In the ledger,
 * the first holder's token dies with the out-of-band release: her release is refused
 * and she is told to forget her machine, and Bob's node is never touched.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { streamEvents, useLedger } from './support/lifecycle';
import type { Acquired, Schema, StaleToken, OwnNode } from './support/answers';

describe('seed 1: a failed deployment released out of band never yields two owners of one node', () => {
  const started = useLedger();

  it('plays the Fair Clouds story step by step', async () => {
    const ledger = started();
    assert.equal((await enlist(ledger, 'node-7')).status, 201);

    // Alice scales up before lunch: her model acquires node-7 and starts deploying.
    const alice = await ledger.post<Acquired>('/v1/allocations', {
      requestId: newRequestId('alice'),
      consumer: consumer('fair-clouds', 'mobile-app', '87'),
      nodeId: 'node-7',
    });
    assert.equal(alice.status, 201, JSON.stringify(alice.body));
    assert.equal(alice.body.epoch, 1);
    const aliceToken: string = alice.body.token;
    assert.equal((await ledger.post(`/v1/allocations/${aliceToken}/deploying`, {})).status, 200);

    // MAAS reports the deployment failed, after first saying it started.
    const failed = await ledger.post('/v1/observations/nodes', {
      nodeId: 'node-7',
      providerStatus: 'Failed deployment',
      observedAt: new Date().toISOString(),
      source: 'maas',
    });
    assert.equal(failed.status, 200);
    assert.equal(failed.body.status, 'failed_deployment');

    // Charlie fixes the server and releases it in MAAS: the provider says it is Ready again.
    const released = await ledger.post('/v1/observations/nodes', {
      nodeId: 'node-7',
      providerStatus: 'Ready',
      observedAt: new Date().toISOString(),
      source: 'maas',
    });
    assert.equal(released.body.status, 'revoked');

    // Bob's model acquires the same machine and deploys it: a new token, the next epoch.
    const bob = await ledger.post<Acquired>('/v1/allocations', {
      requestId: newRequestId('bob'),
      consumer: consumer('fair-clouds', 'show-me-the-money', '5'),
      nodeId: 'node-7',
    });
    assert.equal(bob.status, 201, JSON.stringify(bob.body));
    assert.equal(bob.body.epoch, 2);
    assert.notEqual(bob.body.token, aliceToken);
    const bobToken: string = bob.body.token;
    await ledger.post(`/v1/allocations/${bobToken}/deploying`, {});
    const deployed = await ledger.post(`/v1/allocations/${bobToken}/deployed`, {});
    assert.equal(deployed.body.status, 'deployed');

    // Alice is back from lunch and cleans up: her release names a dead token.
    const refused = await ledger.post<StaleToken>(`/v1/allocations/${aliceToken}/release`, { requestId: newRequestId('alice-release') });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'stale_token');
    assert.match(refused.body.details.action, /forget this machine; do not touch the node/);

    // Bob's node is untouched.
    const node = await ledger.get<OwnNode>(`/v1/nodes/node-7?minPosition=${deployed.body.position ?? 0}`);
    assert.equal(node.body.status, 'deployed');
    assert.equal(node.body.allocation?.token, bobToken);
    assert.equal(node.body.epoch, 2);
    const aliceAllocation = await ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${aliceToken}`);
    assert.equal(aliceAllocation.body.current, false);
    assert.equal(aliceAllocation.body.ending?.kind, 'revoked');
    assert.equal(aliceAllocation.body.ending?.source, 'maas');

    // Reconcile: Alice is told to forget machine 87; Bob's machine 5 is valid.
    const aliceVerdict = await ledger.post<Schema<'ReconcileResponseDto'>>('/v1/reconcile', {
      consumer: consumer('fair-clouds', 'mobile-app'),
      instances: [{ machine: '87', token: aliceToken }],
    });
    assert.equal(aliceVerdict.status, 200);
    assert.equal(aliceVerdict.body.instances[0].verdict, 'stale');
    assert.match(aliceVerdict.body.instances[0].action, /do not release, stop or touch the node/);
    const bobVerdict = await ledger.post<Schema<'ReconcileResponseDto'>>('/v1/reconcile', {
      consumer: consumer('fair-clouds', 'show-me-the-money'),
      instances: [{ machine: '5', token: bobToken }],
    });
    assert.equal(bobVerdict.body.instances[0].verdict, 'valid');

    // The refusal itself is in the log, for the incident review.
    {
      const refusals = await streamEvents(ledger.dataDir, 'refusals-node-7');
      assert.equal(refusals.length, 1);
      assert.equal(refusals[0].type, 'CommandRefused');
      const refusal = refusals[0].data as { command?: string; code?: string; token?: string };
      assert.deepEqual(
        { command: refusal.command, code: refusal.code, token: refusal.token },
        { command: 'ReleaseAllocation', code: 'stale_token', token: aliceToken },
      );
      const nodeEvents = (await streamEvents(ledger.dataDir, 'node-node-7')).map((e) => e.type);
      assert.deepEqual(nodeEvents, [
        'NodeEnlisted',
        'NodeAcquired',
        'DeploymentStarted',
        'DeploymentFailed',
        'AllocationRevoked',
        'NodeAcquired',
        'DeploymentStarted',
        'NodeDeployed',
      ]);
    }
  });
});
