import { describe, it } from 'node:test';
import { nodeDecider } from './node-decider';
import {
  NODE,
  RESERVATION,
  acquireNode,
  allocationReleased,
  at,
  cancelReservation,
  nodeAcquired,
  nodeEnlisted,
  nodeReserved,
  reservationCancelled,
  reservationExpired,
  reserveNode,
  specFor,
  tokenFor,
} from '../testing';

/**
 * Seed 3: a tool (the autopilot) picks nodes and holds them for an agent before that agent
 * acquires them. A reservation holds the node for `agentName` until `expiresAt`; only the
 * holder of its secret key (the ledger sees only the key's hash) can acquire or cancel it.
 */
const spec = specFor(nodeDecider);

describe('reserving a node', () => {
  it('holds a free node for an agent until the reservation expires', () => {
    spec
      .given([nodeEnlisted()])
      .when(reserveNode())
      .then([nodeReserved()])
      .thenReplies({ nodeId: NODE, reservationId: RESERVATION.reservationId, expiresAt: RESERVATION.expiresAt });
  });

  it('records the owner when one is given', () => {
    spec
      .given([nodeEnlisted()])
      .when(reserveNode({ owner: 'andreas' }))
      .then([nodeReserved({ owner: 'andreas' })]);
  });

  it('refuses a node that is allocated: node_unavailable', () => {
    spec
      .given([nodeEnlisted(), nodeAcquired('alice')])
      .when(reserveNode())
      .thenRefuses('node_unavailable', { epoch: 1 });
  });

  it('refuses a node another reservation holds: node_reserved, saying when it expires', () => {
    spec
      .given([nodeEnlisted(), nodeReserved()])
      .when(reserveNode({ reservationId: 'res-2', agentName: 'landscape', keyHash: 'sha256-of-key-2' }))
      .thenRefuses('node_reserved', { expiresAt: RESERVATION.expiresAt });
  });

  it('refuses even the same agent while its reservation holds (there is nothing to extend)', () => {
    spec.given([nodeEnlisted(), nodeReserved()]).when(reserveNode()).thenRefuses('node_reserved');
  });

  it('replaces an expired reservation, recording first that it expired', () => {
    spec
      .given([nodeEnlisted(), nodeReserved({ expiresAt: at(5) })])
      .when(reserveNode({ reservationId: 'res-2', keyHash: 'sha256-of-key-2', expiresAt: at(40), now: at(10) }))
      .then([reservationExpired('res-1', at(5)), nodeReserved({ reservationId: 'res-2', keyHash: 'sha256-of-key-2', expiresAt: at(40) })]);
  });

  it('treats a reservation as expired from the instant of its expiresAt', () => {
    spec
      .given([nodeEnlisted(), nodeReserved({ expiresAt: at(10) })])
      .when(reserveNode({ reservationId: 'res-2', now: at(10) }))
      .then([reservationExpired('res-1', at(10)), nodeReserved({ reservationId: 'res-2' })]);
  });

  it('can reserve a node again once its allocation has ended', () => {
    const token = tokenFor(1, 'alice');
    spec
      .given([nodeEnlisted(), nodeReserved(), nodeAcquired('alice', { reservationId: 'res-1' }), allocationReleased(token)])
      .when(reserveNode({ reservationId: 'res-2' }))
      .then([nodeReserved({ reservationId: 'res-2' })]);
  });

  it('can reserve a node again once its reservation was cancelled', () => {
    spec
      .given([nodeEnlisted(), nodeReserved(), reservationCancelled()])
      .when(reserveNode({ reservationId: 'res-2' }))
      .then([nodeReserved({ reservationId: 'res-2' })]);
  });
});

describe('cancelling a reservation', () => {
  it('ends the reservation when the key matches', () => {
    spec
      .given([nodeEnlisted(), nodeReserved()])
      .when(cancelReservation())
      .then([reservationCancelled()])
      .thenReplies({ nodeId: NODE, reservationId: RESERVATION.reservationId });
  });

  it('frees the node: anyone may then acquire it without a key', () => {
    spec.given([nodeEnlisted(), nodeReserved(), reservationCancelled()]).when(acquireNode('bob')).thenReplies({ epoch: 1 });
  });

  it('refuses the wrong key: reservation_mismatch, and the reservation stays', () => {
    spec
      .given([nodeEnlisted(), nodeReserved()])
      .when(cancelReservation({ keyHash: 'sha256-of-a-guess' }))
      .thenRefuses('reservation_mismatch');
  });

  it('answers not_found for a reservation id the node is not held under', () => {
    spec
      .given([nodeEnlisted(), nodeReserved()])
      .when(cancelReservation({ reservationId: 'res-9' }))
      .thenRefuses('not_found');
  });

  it('answers not_found when the node holds no reservation at all', () => {
    spec.given([nodeEnlisted()]).when(cancelReservation()).thenRefuses('not_found');
    spec.given([nodeEnlisted(), nodeReserved(), reservationCancelled()]).when(cancelReservation()).thenRefuses('not_found');
  });

  it('answers not_found for a reservation that has expired (it is already gone)', () => {
    spec
      .given([nodeEnlisted(), nodeReserved({ expiresAt: at(5) })])
      .when(cancelReservation({ now: at(10) }))
      .thenRefuses('not_found');
  });

  it('answers not_found for a reservation that an acquire consumed', () => {
    spec
      .given([nodeEnlisted(), nodeReserved(), nodeAcquired('carol', { reservationId: 'res-1' })])
      .when(cancelReservation())
      .thenRefuses('not_found');
  });
});
