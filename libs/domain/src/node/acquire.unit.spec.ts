import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseToken } from '../provisioning-token';
import { nodeDecider } from './node-decider';
import {
  NODE,
  RESERVATION,
  acquireNode,
  allocationReleased,
  allocationRevoked,
  at,
  deploymentFailed,
  deploymentStarted,
  entropy,
  nodeAcquired,
  nodeDeployed,
  nodeEnlisted,
  nodeReserved,
  reservationCancelled,
  reservationExpired,
  reserveNode,
  specFor,
  stamp,
  tokenFor,
} from '../testing';

/**
 * Acquiring hands a node to one consumer. Every acquire mints a fresh provisioning token
 * (the consumer's instance id) and the node's next epoch; the token is never reused, so a
 * consumer that kept an old one can be told apart from the node's current holder (seed 1).
 */
const spec = specFor(nodeDecider);
const aliceToken = tokenFor(1, 'alice');

describe('acquiring a free node', () => {
  it('allocates it to the consumer with a fresh token and epoch 1', () => {
    spec
      .given([nodeEnlisted()])
      .when(acquireNode('alice', { now: at(3) }))
      .then([nodeAcquired('alice', { epoch: 1, at: at(3) })])
      .thenReplies({ nodeId: NODE, token: aliceToken, epoch: 1, status: 'allocated' });
  });

  it('mints the token from the node, the epoch and the injected entropy, so it routes back to the node', () => {
    const { reply } = spec.given([nodeEnlisted()]).when(acquireNode('alice'));
    assert.deepEqual(parseToken(reply.token!), { nodeId: NODE, epoch: 1 });
    assert.ok(reply.token!.endsWith(entropy('alice')));
  });

  it('gives each later allocation the next epoch and a new token, even with the same entropy', () => {
    const { reply } = spec
      .given([nodeEnlisted(), nodeAcquired('alice'), allocationReleased(aliceToken)])
      .when(acquireNode('alice', { request: stamp('acquire-again') }))
      .then([nodeAcquired('alice', { epoch: 2, at: at(10), request: stamp('acquire-again') })]);
    assert.notEqual(reply.token, aliceToken);
  });

  it('counts epochs across every way an allocation ends', () => {
    const history = [
      nodeEnlisted(),
      nodeAcquired('alice', { epoch: 1 }),
      allocationRevoked(tokenFor(1, 'alice'), 'ready', at(2)),
      nodeAcquired('bob', { epoch: 2 }),
      allocationReleased(tokenFor(2, 'bob'), { ending: 'force_released' }),
      nodeAcquired('alice', { epoch: 3, request: stamp('third') }),
      allocationReleased(tokenFor(3, 'alice'), { ending: 'model_released' }),
    ];
    spec
      .given(history)
      .when(acquireNode('carol'))
      .thenReplies({ epoch: 4, token: tokenFor(4, 'carol') });
  });
});

describe('acquiring an allocated node', () => {
  const whileAllocated = {
    allocated: [nodeEnlisted(), nodeAcquired('alice')],
    deploying: [nodeEnlisted(), nodeAcquired('alice'), deploymentStarted(aliceToken)],
    deployed: [nodeEnlisted(), nodeAcquired('alice'), nodeDeployed(aliceToken)],
    failed_deployment: [nodeEnlisted(), nodeAcquired('alice'), deploymentFailed(aliceToken)],
  };

  for (const [status, history] of Object.entries(whileAllocated)) {
    it(`refuses it while the allocation is ${status}: node_unavailable, naming the live epoch`, () => {
      spec.given(history).when(acquireNode('bob')).thenRefuses('node_unavailable', { epoch: 1 });
    });
  }

  it('refuses the holder itself too: a second acquire is a second allocation, not a retry (retries carry the same requestId)', () => {
    spec
      .given([nodeEnlisted(), nodeAcquired('alice')])
      .when(acquireNode('alice', { request: stamp('another-request') }))
      .thenRefuses('node_unavailable');
  });

  it('refuses it even with the key of a reservation', () => {
    spec
      .given([nodeEnlisted(), nodeAcquired('alice')])
      .when(acquireNode('carol', { reservationKeyHash: RESERVATION.keyHash }))
      .thenRefuses('node_unavailable');
  });
});

describe('acquiring a reserved node (seed 3)', () => {
  const reserved = [nodeEnlisted(), nodeReserved()];

  it('refuses a consumer that presents no key: node_reserved, saying when the reservation expires', () => {
    spec.given(reserved).when(acquireNode('bob')).thenRefuses('node_reserved', { expiresAt: RESERVATION.expiresAt });
  });

  it('refuses a consumer that presents the wrong key: reservation_mismatch', () => {
    spec
      .given(reserved)
      .when(acquireNode('bob', { reservationKeyHash: 'sha256-of-a-guess' }))
      .thenRefuses('reservation_mismatch');
  });

  it('allocates it to the key holder, consuming the reservation in the same event', () => {
    spec
      .given(reserved)
      .when(acquireNode('carol', { reservationKeyHash: RESERVATION.keyHash }))
      .then([nodeAcquired('carol', { at: at(10), reservationId: RESERVATION.reservationId })])
      .thenReplies({ epoch: 1, status: 'allocated' });
  });

  it('leaves no reservation behind once consumed: after release, the node is simply free', () => {
    spec
      .given([...reserved, nodeAcquired('carol', { reservationId: RESERVATION.reservationId }), allocationReleased(tokenFor(1, 'carol'))])
      .when(acquireNode('bob'))
      .thenReplies({ epoch: 2 });
  });

  it('lets anyone acquire once the reservation has expired, recording the expiry first', () => {
    spec
      .given([nodeEnlisted(), nodeReserved({ expiresAt: at(5) })])
      .when(acquireNode('bob', { now: at(10) }))
      .then([reservationExpired(RESERVATION.reservationId, at(5)), nodeAcquired('bob', { at: at(10) })]);
  });

  it('does not count an expired reservation as consumed even when its key is presented', () => {
    spec
      .given([nodeEnlisted(), nodeReserved({ expiresAt: at(5) })])
      .when(acquireNode('carol', { reservationKeyHash: RESERVATION.keyHash, now: at(10) }))
      .then([reservationExpired(RESERVATION.reservationId, at(5)), nodeAcquired('carol', { at: at(10), reservationId: null })]);
  });

  it('ignores a key presented for a node that holds no reservation', () => {
    spec
      .given([nodeEnlisted(), nodeReserved(), reservationCancelled()])
      .when(acquireNode('bob', { reservationKeyHash: RESERVATION.keyHash }))
      .then([nodeAcquired('bob', { at: at(10) })]);
  });

  it('a reservation made after an expiry is a new hold: the old key no longer opens it', () => {
    spec
      .given([
        nodeEnlisted(),
        nodeReserved({ expiresAt: at(5) }),
        reservationExpired(),
        nodeReserved({ reservationId: 'res-2', keyHash: 'sha256-of-key-2', expiresAt: at(40) }),
      ])
      .when(acquireNode('carol', { reservationKeyHash: RESERVATION.keyHash, now: at(10) }))
      .thenRefuses('reservation_mismatch');
  });

  it('a reservation cannot be taken on an allocated node, so an acquire never finds both', () => {
    spec
      .given([nodeEnlisted(), nodeAcquired('alice')])
      .when(reserveNode())
      .thenRefuses('node_unavailable');
  });
});
