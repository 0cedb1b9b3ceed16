import { accept, refuse, type Decision } from '../core';
import type { CancelReservation, ReserveNode } from './node-commands';
import type { NodeEvent } from './node-events';
import { liveReservation, type NodeReply, type NodeState } from './node-state';
import { unavailability } from './node-availability';

/** An expired reservation is recorded as such before anything replaces it. */
export const expireIfDue = (state: NodeState, now: string): NodeEvent[] =>
  state.reservation && !liveReservation(state, now)
    ? [{ type: 'ReservationExpired', data: { nodeId: state.nodeId!, reservationId: state.reservation.reservationId, expiredAt: state.reservation.expiresAt } }]
    : [];

export const decideReserve = (command: ReserveNode, state: NodeState): Decision<NodeEvent, NodeReply> => {
  const unavailable = unavailability(state);
  if (unavailable) return { outcome: 'refused', refusal: unavailable };
  const held = liveReservation(state, command.now);
  if (held) return refuse('node_reserved', `node ${command.nodeId} is reserved by ${held.agentName}`, { expiresAt: held.expiresAt });
  const { nodeId, reservationId, agentName, owner, keyHash, expiresAt } = command;
  return accept([...expireIfDue(state, command.now), { type: 'NodeReserved', data: { nodeId, reservationId, agentName, owner, keyHash, expiresAt } }], {
    nodeId,
    reservationId,
    expiresAt,
  });
};

export const decideCancelReservation = (command: CancelReservation, state: NodeState): Decision<NodeEvent, NodeReply> => {
  const held = liveReservation(state, command.now);
  if (!held || held.reservationId !== command.reservationId) {
    return refuse('not_found', `node ${command.nodeId} has no live reservation ${command.reservationId}`);
  }
  if (held.keyHash !== command.keyHash) return refuse('reservation_mismatch', 'the reservation key does not match');
  return accept([{ type: 'ReservationCancelled', data: { nodeId: command.nodeId, reservationId: held.reservationId } }], {
    nodeId: command.nodeId,
    reservationId: held.reservationId,
  });
};
