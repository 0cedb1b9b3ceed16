/**
 * Seed 4: a transient power-sync failure put a node into operator maintenance and left
 * the user's instance undeletable. In the ledger, automatic trouble is a *fault*: it
 * never blocks ending an allocation, it keeps the node from being handed out, and it
 * clears itself. Maintenance is the operator's alone, on and off.
 *
 * The cast speaks with its own keys: Ironic's conductor (provider) reports power syncs,
 * Nova (consumer) acquires and deletes instances, Charlie (operator) does maintenance.
 *
 * A deployment that never finishes is the same kind of trouble: seed-4-deploy-timeout.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type LedgerClient, addKey } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { streamEvents, useLedger } from './support/lifecycle';
import type { Acquired, ApiError, Schema } from './support/answers';

/** An ISO instant `seconds` from now (negative: in the past): power syncs are ordered by when they were observed. */
const observedIn = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

const nodeIds = (body: { nodes: { nodeId: string }[] }) => body.nodes.map((n) => n.nodeId);

describe('seed 4: automatic faults are not maintenance, and never wedge an instance', () => {
  const started = useLedger();
  let conductor: LedgerClient; // Ironic's conductor: a provider key
  let nova: LedgerClient; // a consumer key for the overcloud controller
  before(async () => {
    const ledger = started();
    conductor = ledger.as(addKey(ledger.dataDir, '--name', 'ironic-conductor', '--role', 'provider'));
    nova = ledger.as(addKey(ledger.dataDir, '--name', 'nova', '--role', 'consumer', '--controller', 'overcloud'));
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the ledger re-reads the keys file at most once a second
  });
  /** `ok` undefined: a report that leaves it out. */
  const powerSync = <T = Schema<'PowerObservationResponseDto'>>(nodeId: string, ok: boolean | undefined, observedAt: string, error?: string) =>
    conductor.post<T>('/v1/observations/power', { nodeId, ok, observedAt, ...(error ? { error } : {}) });

  it('plays the story: power fails, the node is faulted, the release succeeds, power returns, the fault clears by itself', async () => {
    const operator = started();
    await enlist(operator, 'node-7', { tags: ['seed-4'] });
    await enlist(operator, 'node-8', { tags: ['seed-4'] });

    // Nova's instance hw-test-9df3 is deployed on node-7.
    const acquired = await nova.post<Acquired>('/v1/allocations', {
      requestId: newRequestId('nova'),
      consumer: consumer('overcloud', 'hw-test', 'hw-test-9df3'),
      nodeId: 'node-7',
    });
    assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
    const token: string = acquired.body.token;
    await conductor.post(`/v1/allocations/${token}/deploying`, {});
    assert.equal((await conductor.post(`/v1/allocations/${token}/deployed`, {})).body.status, 'deployed');

    // The conductor's power sync fails three times in a row (the default threshold).
    const errors = ['IPMI timeout', 'node state None does not match expected state power on', 'max retries exceeded'];
    const observedAt = [observedIn(-30), observedIn(-20), observedIn(-10)];
    const answers = [];
    for (const [i, error] of errors.entries()) {
      const answer = await powerSync('node-7', false, observedAt[i], error);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      answers.push(answer.body);
    }
    assert.deepEqual(
      answers.map((a) => a.status),
      ['failing', 'failing', 'faulted'],
    );
    assert.deepEqual(answers[2].faults, ['power_failure']);

    // Faulted, NOT in maintenance; the instance's allocation is untouched.
    let node = await nova.get<Schema<'NodeResponseDto'>>(`/v1/nodes/node-7?minPosition=${answers[2].position}`);
    assert.equal(node.body.status, 'deployed');
    assert.equal(node.body.maintenance, null, 'an automatic fault must never be maintenance');
    assert.deepEqual(node.body.faults, [{ name: 'power_failure', since: observedAt[0], lastError: 'max retries exceeded' }]);
    assert.deepEqual(nodeIds((await nova.get<Schema<'NodeListResponseDto'>>('/v1/nodes?condition=faulted')).body), ['node-7']);
    assert.deepEqual(nodeIds((await nova.get<Schema<'NodeListResponseDto'>>('/v1/nodes?condition=maintenance')).body), []);

    // Nova deletes the instance: the release is accepted, listing the cleanup that could not run.
    const release = await nova.post(`/v1/allocations/${token}/release`, { requestId: newRequestId('delete') });
    assert.equal(release.status, 200, JSON.stringify(release.body));
    assert.equal(release.body.status, 'released');
    assert.deepEqual(release.body.pendingCleanup, ['power_off', 'wipe_disks']);
    node = await nova.get<Schema<'NodeResponseDto'>>(`/v1/nodes/node-7?minPosition=${release.body.position}`);
    assert.equal(node.body.allocation, null);
    assert.equal(node.body.status, 'faulted');
    assert.deepEqual(node.body.pendingCleanup?.steps, ['power_off', 'wipe_disks']);
    assert.equal(node.body.pendingCleanup?.token, token);
    assert.equal((await nova.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${token}`)).body.live, false);

    // The node is not handed out: by id it is refused, by constraints it is passed by.
    const byId = await nova.post<ApiError & { details: { pendingCleanup: string[] } }>('/v1/allocations', {
      requestId: newRequestId(),
      consumer: consumer('overcloud', 'other'),
      nodeId: 'node-7',
    });
    assert.equal(byId.status, 409);
    assert.equal(byId.body.code, 'node_faulted');
    assert.deepEqual(byId.body.details.pendingCleanup, ['power_off', 'wipe_disks']);
    const byConstraints = await nova.post('/v1/allocations', {
      requestId: newRequestId(),
      consumer: consumer('overcloud', 'other'),
      constraints: { tags: ['seed-4'] },
    });
    assert.equal(byConstraints.status, 201, JSON.stringify(byConstraints.body));
    assert.equal(byConstraints.body.nodeId, 'node-8');
    const none = await nova.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('overcloud', 'other'), constraints: { tags: ['seed-4'] } });
    assert.equal(none.status, 409);
    assert.equal(none.body.code, 'no_matching_node');
    const ready = await nova.get<Schema<'NodeListResponseDto'>>(`/v1/nodes?status=ready&minPosition=${byConstraints.body.position}`);
    assert.ok(!nodeIds(ready.body).includes('node-7'), 'a faulted node is never "ready"');

    // Power comes back: one good sync clears the fault and the pending cleanup, with no operator.
    const back = await powerSync('node-7', true, observedIn(0));
    assert.equal(back.status, 200);
    assert.equal(back.body.status, 'recovered');
    assert.deepEqual(back.body.faults, []);
    node = await nova.get<Schema<'NodeResponseDto'>>(`/v1/nodes/node-7?minPosition=${back.body.position}`);
    assert.equal(node.body.status, 'ready');
    assert.deepEqual(node.body.faults, []);
    assert.equal(node.body.pendingCleanup, null);
    // Routine good syncs afterwards write nothing.
    const routine = await powerSync('node-7', true, observedIn(1));
    assert.equal(routine.body.status, 'ok');
    assert.equal(routine.body.position, null);

    // Only the operator may put a node in maintenance.
    assert.equal((await conductor.post('/v1/nodes/node-7/maintenance', { reason: 'BMC unreachable' })).status, 403, 'no automatic path to maintenance');
    assert.equal((await nova.post('/v1/nodes/node-7/maintenance', { reason: 'mine' })).status, 403);
    const on = await operator.post<Schema<'MaintenanceResponseDto'>>('/v1/nodes/node-7/maintenance', { reason: 'replacing the BMC' });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.equal(on.body.maintenance?.reason, 'replacing the BMC');
    assert.equal(on.body.maintenance?.by, 'operator', 'maintenance records the operator who asked');
    assert.equal((await operator.post('/v1/nodes/node-7/maintenance', { reason: 'again' })).body.position, null, 'repeating is a no-op');

    // Maintenance blocks acquire, by id and by constraints, until the operator ends it.
    const blocked = await nova.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('overcloud', 'other'), nodeId: 'node-7' });
    assert.equal(blocked.status, 409);
    assert.equal(blocked.body.code, 'node_in_maintenance');
    assert.equal(
      (await nova.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('overcloud', 'other'), constraints: { tags: ['seed-4'] } })).body
        .code,
      'no_matching_node',
    );
    node = await nova.get<Schema<'NodeResponseDto'>>(`/v1/nodes/node-7?minPosition=${on.body.position}`);
    assert.equal(node.body.status, 'maintenance');
    assert.deepEqual(node.body.faults, [], 'maintenance is not a fault');
    assert.deepEqual(nodeIds((await nova.get<Schema<'NodeListResponseDto'>>('/v1/nodes?condition=maintenance')).body), ['node-7']);
    // Power syncs, bad or good, never end maintenance.
    await powerSync('node-7', false, observedIn(2), 'BMC being replaced');
    const stillOn = await powerSync('node-7', true, observedIn(3));
    assert.equal(
      (await nova.get<Schema<'NodeResponseDto'>>(`/v1/nodes/node-7?minPosition=${stillOn.body.position}`)).body.maintenance?.reason,
      'replacing the BMC',
    );

    assert.equal((await conductor.request('DELETE', '/v1/nodes/node-7/maintenance')).status, 403);
    const off = await operator.request('DELETE', '/v1/nodes/node-7/maintenance', undefined, { 'x-maintenance-reason': 'BMC replaced' });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(off.body.maintenance, null);
    const again = await nova.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('overcloud', 'other'), nodeId: 'node-7' });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.epoch, 2);

    // The story is in the node's stream; maintenance only where the operator asked for it.
    const events = await streamEvents(operator.dataDir, 'node-node-7');
    assert.deepEqual(
      events.map((e) => e.type),
      [
        'NodeEnlisted',
        'NodeAcquired',
        'DeploymentStarted',
        'NodeDeployed',
        'PowerSyncFailed',
        'PowerSyncFailed',
        'PowerSyncFailed',
        'NodeFaulted',
        'AllocationReleased',
        'PowerSyncRecovered',
        'FaultCleared',
        'PendingCleanupDone',
        'MaintenanceStarted',
        'PowerSyncFailed',
        'PowerSyncRecovered',
        'MaintenanceEnded',
        'NodeAcquired',
      ],
    );
    const byType = (type: string) => events.filter((e) => e.type === type);
    assert.ok(byType('NodeFaulted').every((e) => e.metadata.actor === 'ironic-conductor'));
    for (const e of [...byType('MaintenanceStarted'), ...byType('MaintenanceEnded')]) {
      assert.equal(e.metadata.actor, 'operator');
      assert.equal((e.data as { by: string }).by, 'operator');
    }
    assert.equal((byType('MaintenanceEnded')[0].data as { reason: string }).reason, 'BMC replaced');
  });

  it('ending a whole model (environment destroy) on a faulted node also succeeds, with its cleanup pending', async () => {
    const operator = started();
    await enlist(operator, 'node-10');
    const acquired = await nova.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('overcloud', 'doomed', '0'), nodeId: 'node-10' });
    assert.equal(acquired.status, 201);
    for (const seconds of [-3, -2, -1]) await powerSync('node-10', false, observedIn(seconds), 'no route to host');
    const destroyed = await operator.post('/v1/models/release', { controller: 'overcloud', model: 'doomed' });
    assert.equal(destroyed.status, 200, JSON.stringify(destroyed.body));
    assert.deepEqual(destroyed.body.released, [{ token: acquired.body.token, nodeId: 'node-10', pendingCleanup: ['power_off', 'wipe_disks'] }]);
  });

  it('refuses bad observations and maintenance requests with a 400 naming the field, and unknown nodes with a 404', async () => {
    const operator = started();
    await enlist(operator, 'node-9');
    const missing = await powerSync<ApiError>('node-9', undefined, observedIn(0));
    assert.equal(missing.status, 400);
    assert.match(missing.body.message, /ok/);
    assert.equal((await conductor.post('/v1/observations/power', { nodeId: 'node-9', ok: 'no', observedAt: observedIn(0) })).status, 400);
    const badTime = await powerSync<ApiError>('node-9', false, 'yesterday');
    assert.equal(badTime.status, 400);
    assert.match(badTime.body.message, /observedAt/);
    const future = await powerSync<ApiError>('node-9', false, observedIn(3_600));
    assert.equal(future.status, 400, 'an observation from the future would silence every real one');
    assert.match(future.body.message, /observedAt/);
    assert.equal((await powerSync('nobody', false, observedIn(0))).status, 404);
    assert.equal(
      (await nova.post('/v1/observations/power', { nodeId: 'node-9', ok: false, observedAt: observedIn(0) })).status,
      403,
      'consumers do not report power',
    );
    const noReason = await operator.post<ApiError>('/v1/nodes/node-9/maintenance', {});
    assert.equal(noReason.status, 400);
    assert.match(noReason.body.message, /reason/);
    assert.equal((await operator.post('/v1/nodes/nobody/maintenance', { reason: 'x' })).status, 404);
    assert.equal((await operator.request('DELETE', '/v1/nodes/nobody/maintenance')).status, 404);
    const notOn = await operator.request('DELETE', '/v1/nodes/node-9/maintenance');
    assert.equal(notOn.status, 200);
    assert.equal(notOn.body.position, null, 'ending maintenance that is not on changes nothing');
    assert.equal((await operator.get<Schema<'NodeListResponseDto'>>('/v1/nodes?condition=broken')).status, 400);
    assert.deepEqual(
      (await streamEvents(operator.dataDir, 'node-node-9')).map((e) => e.type),
      ['NodeEnlisted'],
      'nothing refused was written',
    );
  });
});
