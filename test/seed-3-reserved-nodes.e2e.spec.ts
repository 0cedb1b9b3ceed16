/**
 * Seed 3: nodes picked by one tool (the Autopilot) were taken by someone else before
 * it could acquire them. In the ledger a reservation is held with a secret key:
 * acquire-by-name presenting the key consumes it atomically; everyone else is refused,
 * and constraint-based acquires pass the reserved node by.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useLedger } from './support/lifecycle';
import { consumer, enlist, newRequestId } from './support/fixtures';
import type { Schema, OwnNode } from './support/answers';

describe('seed 3: a reserved node goes only to the holder of its key', () => {
  const started = useLedger();

  it('reserves for an agent, refuses everyone else, and hands the node to the key holder', async () => {
    const ledger = started();
    await enlist(ledger, 'elkhart', { tags: ['openstack'] });
    await enlist(ledger, 'darby', { tags: ['openstack'] });

    const reservation = await ledger.post<Schema<'ReserveNodeResponseDto'>>('/v1/nodes/elkhart/reservations', {
      agentName: 'autopilot-5f2c',
      owner: 'andreas',
      ttlSeconds: 600,
    });
    assert.equal(reservation.status, 201, JSON.stringify(reservation.body));
    const { reservationId, reservationKey, expiresAt } = reservation.body;
    assert.ok(reservationId && reservationKey && expiresAt);

    const node = await ledger.get<Schema<'NodeResponseDto'>>(`/v1/nodes/elkhart?minPosition=${reservation.body.position}`);
    assert.equal(node.body.status, 'reserved');
    assert.equal(node.body.reservation?.agentName, 'autopilot-5f2c');
    assert.ok(node.body.reservation && !('keyHash' in node.body.reservation), 'the key is never shown again');

    // Another user asks for the node by name: refused, without and with a wrong key.
    const other = consumer('other', 'model-x');
    const noKey = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: other, nodeId: 'elkhart' });
    assert.equal(noKey.status, 409);
    assert.equal(noKey.body.code, 'node_reserved');
    const wrongKey = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: other, nodeId: 'elkhart', reservationKey: 'rk_guess' });
    assert.equal(wrongKey.status, 409);
    assert.equal(wrongKey.body.code, 'reservation_mismatch');

    // A constraint-based acquire skips the reserved node and takes the free one.
    const byConstraints = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: other, constraints: { tags: ['openstack'] } });
    assert.equal(byConstraints.status, 201, JSON.stringify(byConstraints.body));
    assert.equal(byConstraints.body.nodeId, 'darby');
    // With every matching node taken or reserved, there is no match rather than the reserved node.
    const none = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: other, constraints: { tags: ['openstack'] } });
    assert.equal(none.status, 409);
    assert.equal(none.body.code, 'no_matching_node');

    // Juju, bootstrapped with the Autopilot's key, acquires the node by name.
    const juju = await ledger.post('/v1/allocations', {
      requestId: newRequestId('juju'),
      consumer: consumer('autopilot', 'openstack', '0'),
      nodeId: 'elkhart',
      reservationKey,
    });
    assert.equal(juju.status, 201, JSON.stringify(juju.body));
    const after = await ledger.get<OwnNode>(`/v1/nodes/elkhart?minPosition=${juju.body.position}`);
    assert.equal(after.body.status, 'allocated');
    assert.equal(after.body.reservation, null, 'the reservation was consumed');
    assert.equal(after.body.allocation?.token, juju.body.token);
  });

  it('cancels a reservation only with its key', async () => {
    const ledger = started();
    await enlist(ledger, 'correja');
    const { body } = await ledger.post<Schema<'ReserveNodeResponseDto'>>('/v1/nodes/correja/reservations', { agentName: 'landscape' });
    const wrong = await ledger.request('DELETE', `/v1/nodes/correja/reservations/${body.reservationId}`, undefined, { 'x-reservation-key': 'rk_nope' });
    assert.equal(wrong.status, 409);
    assert.equal(wrong.body.code, 'reservation_mismatch');
    const right = await ledger.request('DELETE', `/v1/nodes/correja/reservations/${body.reservationId}`, undefined, {
      'x-reservation-key': body.reservationKey,
    });
    assert.equal(right.status, 200);
    const node = await ledger.get<Schema<'NodeResponseDto'>>(`/v1/nodes/correja?minPosition=${right.body.position}`);
    assert.equal(node.body.status, 'ready');
  });
});
