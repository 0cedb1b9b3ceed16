/**
 * Seed 4: a transient power-sync failure put a node into operator maintenance and left
 * the user's instance undeletable. In the ledger, automatic trouble is a *fault*: it
 * never blocks ending an allocation, it keeps the node from being handed out, and it
 * clears itself. Maintenance is the operator's alone, on and off.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SqliteEventStore } from '@ledger/event-store';
import { LedgerProcess } from './support/ledger-process';
import { consumer, enlist, newRequestId } from './support/fixtures';

/** An ISO instant `secondsAgo` before now: power syncs are ordered by when they were observed. */
const observedAgo = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();

const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 8_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const nodeEventTypes = async (ledger: LedgerProcess, nodeId: string) => {
  const store = await SqliteEventStore.open({ file: join(ledger.dataDir, 'events.sqlite') });
  try {
    return await store.readStream(`node-${nodeId}`);
  } finally {
    await store.close();
  }
};

describe('seed 4: automatic faults are not maintenance, and never wedge an instance', () => {
  let ledger: LedgerProcess;
  before(async () => {
    ledger = await LedgerProcess.start();
  });
  after(async () => {
    await ledger.stop();
    ledger.removeData();
  });

  it('plays the story: power fails, the node is faulted, the release succeeds, power returns, the fault clears by itself', async () => {
    await enlist(ledger, 'node-7', { tags: ['seed-4'] });
    await enlist(ledger, 'node-8', { tags: ['seed-4'] });

    // A consumer's instance is deployed on node-7.
    const acquired = await ledger.post('/v1/allocations', { requestId: newRequestId('nova'), consumer: consumer('overcloud', 'hw-test', 'hw-test-9df3'), nodeId: 'node-7' });
    assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
    const token: string = acquired.body.token;
    await ledger.post(`/v1/allocations/${token}/deploying`, {});
    assert.equal((await ledger.post(`/v1/allocations/${token}/deployed`, {})).body.status, 'deployed');

    // The conductor's power sync fails three times in a row (the default threshold).
    const errors = ['IPMI timeout', 'node state None does not match expected state power on', 'max retries exceeded'];
    const observedAt = [observedAgo(30), observedAgo(20), observedAgo(10)];
    const answers = [];
    for (const [i, error] of errors.entries()) {
      const answer = await ledger.post('/v1/observations/power', { nodeId: 'node-7', ok: false, error, observedAt: observedAt[i] });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      answers.push(answer.body);
    }
    assert.deepEqual(answers.map((a) => a.status), ['failing', 'failing', 'faulted']);
    assert.deepEqual(answers[2].faults, ['power_failure']);

    // Faulted, NOT in maintenance; the allocation is untouched.
    let node = await ledger.get(`/v1/nodes/node-7?minPosition=${answers[2].position}`);
    assert.equal(node.body.status, 'deployed');
    assert.equal(node.body.maintenance, null, 'an automatic fault must never be maintenance');
    assert.equal(node.body.faults.length, 1);
    assert.equal(node.body.faults[0].name, 'power_failure');
    assert.equal(node.body.faults[0].lastError, 'max retries exceeded');
    assert.equal(node.body.faults[0].since, observedAt[0], 'faulted since the first failure of the run');
    const faultedList = await ledger.get('/v1/nodes?condition=faulted');
    assert.deepEqual(faultedList.body.nodes.map((n: { nodeId: string }) => n.nodeId), ['node-7']);

    // The consumer deletes the instance: the release is accepted, with the cleanup that could not run listed.
    const release = await ledger.post(`/v1/allocations/${token}/release`, { requestId: newRequestId('delete') });
    assert.equal(release.status, 200, JSON.stringify(release.body));
    assert.equal(release.body.status, 'released');
    assert.deepEqual(release.body.pendingCleanup, ['power_off', 'wipe_disks']);
    node = await ledger.get(`/v1/nodes/node-7?minPosition=${release.body.position}`);
    assert.equal(node.body.allocation, null);
    assert.equal(node.body.status, 'faulted');
    assert.deepEqual(node.body.pendingCleanup.steps, ['power_off', 'wipe_disks']);
    assert.equal(node.body.pendingCleanup.token, token);
    assert.equal((await ledger.get(`/v1/allocations/${token}`)).body.live, false);

    // The node is not handed out: by id it is refused, by constraints it is passed by.
    const byId = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('overcloud', 'other'), nodeId: 'node-7' });
    assert.equal(byId.status, 409);
    assert.equal(byId.body.code, 'node_faulted');
    assert.deepEqual(byId.body.details.pendingCleanup, ['power_off', 'wipe_disks']);
    const byConstraints = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('overcloud', 'other'), constraints: { tags: ['seed-4'] } });
    assert.equal(byConstraints.status, 201, JSON.stringify(byConstraints.body));
    assert.equal(byConstraints.body.nodeId, 'node-8');
    const none = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('overcloud', 'other'), constraints: { tags: ['seed-4'] } });
    assert.equal(none.status, 409);
    assert.equal(none.body.code, 'no_matching_node');
    const ready = await ledger.get(`/v1/nodes?status=ready&minPosition=${byConstraints.body.position}`);
    assert.ok(!ready.body.nodes.some((n: { nodeId: string }) => n.nodeId === 'node-7'), 'a faulted node is never "ready"');

    // Power comes back: one good sync clears the fault and the pending cleanup, with no operator.
    const back = await ledger.post('/v1/observations/power', { nodeId: 'node-7', ok: true, observedAt: observedAgo(0) });
    assert.equal(back.status, 200);
    assert.equal(back.body.status, 'recovered');
    assert.deepEqual(back.body.faults, []);
    node = await ledger.get(`/v1/nodes/node-7?minPosition=${back.body.position}`);
    assert.equal(node.body.status, 'ready');
    assert.deepEqual(node.body.faults, []);
    assert.equal(node.body.pendingCleanup, null);
    // Routine good syncs afterwards write nothing.
    const routine = await ledger.post('/v1/observations/power', { nodeId: 'node-7', ok: true, observedAt: new Date(Date.now() + 1000).toISOString() });
    assert.equal(routine.body.status, 'ok');
    assert.equal(routine.body.position, null);

    // An operator now puts the node in maintenance: acquire is refused until the operator ends it.
    const on = await ledger.post('/v1/nodes/node-7/maintenance', { reason: 'replacing the BMC' });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.equal(on.body.maintenance.reason, 'replacing the BMC');
    assert.ok(on.body.maintenance.by, 'maintenance records who');
    assert.equal((await ledger.post('/v1/nodes/node-7/maintenance', { reason: 'again' })).body.position, null, 'repeating is a no-op');
    const blocked = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('overcloud', 'other'), nodeId: 'node-7' });
    assert.equal(blocked.status, 409);
    assert.equal(blocked.body.code, 'node_in_maintenance');
    node = await ledger.get(`/v1/nodes/node-7?minPosition=${on.body.position}`);
    assert.equal(node.body.status, 'maintenance');
    assert.deepEqual(node.body.faults, [], 'maintenance is not a fault');
    const inMaintenance = await ledger.get('/v1/nodes?condition=maintenance');
    assert.deepEqual(inMaintenance.body.nodes.map((n: { nodeId: string }) => n.nodeId), ['node-7']);
    // Power syncs, good or bad, never end maintenance.
    await ledger.post('/v1/observations/power', { nodeId: 'node-7', ok: false, error: 'BMC being replaced', observedAt: new Date(Date.now() + 2000).toISOString() });
    const stillOn = await ledger.post('/v1/observations/power', { nodeId: 'node-7', ok: true, observedAt: new Date(Date.now() + 3000).toISOString() });
    assert.equal((await ledger.get(`/v1/nodes/node-7?minPosition=${stillOn.body.position}`)).body.maintenance.reason, 'replacing the BMC');

    const off = await ledger.request('DELETE', '/v1/nodes/node-7/maintenance', undefined, { 'x-maintenance-reason': 'BMC replaced' });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.maintenance, null);
    const again = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('overcloud', 'other'), nodeId: 'node-7' });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.epoch, 2);

    // The story is in the node's stream; maintenance only where the operator asked for it.
    const events = await nodeEventTypes(ledger, 'node-7');
    assert.deepEqual(events.map((e) => e.type), [
      'NodeEnlisted', 'NodeAcquired', 'DeploymentStarted', 'NodeDeployed',
      'PowerSyncFailed', 'PowerSyncFailed', 'PowerSyncFailed', 'NodeFaulted',
      'AllocationReleased', 'PowerSyncRecovered', 'FaultCleared', 'PendingCleanupDone',
      'MaintenanceStarted', 'PowerSyncFailed', 'PowerSyncRecovered', 'MaintenanceEnded', 'NodeAcquired',
    ]);
    const ended = events.find((e) => e.type === 'MaintenanceEnded')!;
    assert.equal((ended.data as { reason: string }).reason, 'BMC replaced');
    assert.equal((ended.data as { by: string }).by, ended.metadata.actor);
  });

  it('refuses bad observations and maintenance requests with a 400 naming the field, and unknown nodes with a 404', async () => {
    await enlist(ledger, 'node-9');
    const missing = await ledger.post('/v1/observations/power', { nodeId: 'node-9', observedAt: observedAgo(0) });
    assert.equal(missing.status, 400);
    assert.match(missing.body.message, /ok/);
    const notBool = await ledger.post('/v1/observations/power', { nodeId: 'node-9', ok: 'no', observedAt: observedAgo(0) });
    assert.equal(notBool.status, 400);
    const badTime = await ledger.post('/v1/observations/power', { nodeId: 'node-9', ok: false, observedAt: 'yesterday' });
    assert.equal(badTime.status, 400);
    assert.match(badTime.body.message, /observedAt/);
    const future = await ledger.post('/v1/observations/power', { nodeId: 'node-9', ok: false, observedAt: new Date(Date.now() + 3_600_000).toISOString() });
    assert.equal(future.status, 400);
    assert.match(future.body.message, /observedAt/);
    const unknown = await ledger.post('/v1/observations/power', { nodeId: 'nobody', ok: false, observedAt: observedAgo(0) });
    assert.equal(unknown.status, 404);
    const noReason = await ledger.post('/v1/nodes/node-9/maintenance', {});
    assert.equal(noReason.status, 400);
    assert.match(noReason.body.message, /reason/);
    assert.equal((await ledger.post('/v1/nodes/nobody/maintenance', { reason: 'x' })).status, 404);
    assert.equal((await ledger.request('DELETE', '/v1/nodes/nobody/maintenance')).status, 404);
    const notOn = await ledger.request('DELETE', '/v1/nodes/node-9/maintenance');
    assert.equal(notOn.status, 200);
    assert.equal(notOn.body.position, null, 'ending maintenance that is not on changes nothing');
    assert.equal((await ledger.get('/v1/nodes?condition=broken')).status, 400);
    const events = await nodeEventTypes(ledger, 'node-9');
    assert.deepEqual(events.map((e) => e.type), ['NodeEnlisted'], 'nothing refused was written');
  });
});

describe('seed 4: a deployment that never finishes faults the node, and the fault clears itself', () => {
  let ledger: LedgerProcess;
  before(async () => {
    ledger = await LedgerProcess.start({ env: { LEDGER_DEPLOY_TIMEOUT_SECONDS: '1', LEDGER_HEALTH_CHECK_INTERVAL_MS: '100' } });
  });
  after(async () => {
    await ledger.stop();
    ledger.removeData();
  });

  const faultsOf = async (nodeId: string) => (await ledger.get(`/v1/nodes/${nodeId}`)).body.faults as { name: string; token?: string }[];

  it('faults a stuck deployment (deploy_timeout), and clears it when the deployment finishes', async () => {
    await enlist(ledger, 'node-20');
    const acquired = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('juju', 'default', '0'), nodeId: 'node-20' });
    const token: string = acquired.body.token;
    await ledger.post(`/v1/allocations/${token}/deploying`, {});

    const faults = await eventually(() => faultsOf('node-20'), (f) => f.length > 0);
    assert.deepEqual(faults.map((f) => f.name), ['deploy_timeout']);
    assert.equal(faults[0].token, token);
    const node = await ledger.get('/v1/nodes/node-20');
    assert.equal(node.body.status, 'deploying');
    assert.equal(node.body.maintenance, null);

    const deployed = await ledger.post(`/v1/allocations/${token}/deployed`, {});
    assert.equal(deployed.status, 200);
    const after = await ledger.get(`/v1/nodes/node-20?minPosition=${deployed.body.position}`);
    assert.deepEqual(after.body.faults, []);
    assert.equal(after.body.status, 'deployed');
    const types = (await nodeEventTypes(ledger, 'node-20')).map((e) => e.type);
    assert.deepEqual(types, ['NodeEnlisted', 'NodeAcquired', 'DeploymentStarted', 'NodeFaulted', 'NodeDeployed', 'FaultCleared'], 'the timer faults once, however often it ticks');
    const faulted = (await nodeEventTypes(ledger, 'node-20')).find((e) => e.type === 'NodeFaulted')!;
    assert.equal(faulted.metadata.actor, 'system:deploy-timeout-monitor');
  });

  it('a timed-out allocation can be released at once; the fault goes with it and nothing is left pending', async () => {
    await enlist(ledger, 'node-21');
    const acquired = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('juju', 'default', '1'), nodeId: 'node-21' });
    const token: string = acquired.body.token;
    await ledger.post(`/v1/allocations/${token}/deploying`, {});
    await eventually(() => faultsOf('node-21'), (f) => f.length > 0);

    const release = await ledger.post(`/v1/allocations/${token}/release`, {});
    assert.equal(release.status, 200);
    assert.equal(release.body.pendingCleanup, undefined);
    const node = await ledger.get(`/v1/nodes/node-21?minPosition=${release.body.position}`);
    assert.deepEqual(node.body.faults, []);
    assert.equal(node.body.status, 'ready');
    const again = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('juju', 'default', '2'), nodeId: 'node-21' });
    assert.equal(again.status, 201);
  });
});
