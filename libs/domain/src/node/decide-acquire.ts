import { accept, refuse, type Decision } from '../core';
import { mintToken } from '../provisioning-token';
import type { AcquireNode } from './node-commands';
import type { NodeEvent } from './node-events';
import { liveReservation, type NodeReply, type NodeState } from './node-state';
import { unavailability } from './node-availability';
import { expireIfDue } from './decide-reservation';

/**
 * Every acquire mints a fresh token and the next epoch. A live reservation is
 * consumed atomically by the key holder; everyone else is refused.
 */
export const decideAcquire = (command: AcquireNode, state: NodeState): Decision<NodeEvent, NodeReply> => {
  const unavailable = unavailability(state);
  if (unavailable) return { outcome: 'refused', refusal: unavailable };

  const held = liveReservation(state, command.now);
  if (held && command.reservationKeyHash === null) {
    return refuse('node_reserved', `node ${command.nodeId} is reserved by ${held.agentName}`, { expiresAt: held.expiresAt });
  }
  if (held && command.reservationKeyHash !== held.keyHash) {
    return refuse('reservation_mismatch', "the reservation key does not match the node's reservation");
  }

  const epoch = state.epoch + 1;
  const token = mintToken(command.nodeId, epoch, command.tokenEntropy);
  const acquired: NodeEvent = {
    type: 'NodeAcquired',
    data: {
      nodeId: command.nodeId,
      token,
      epoch,
      consumer: command.consumer,
      acquiredAt: command.now,
      reservationId: held?.reservationId ?? null,
      request: command.request,
    },
  };
  return accept([...expireIfDue(state, command.now), acquired], { nodeId: command.nodeId, token, epoch, status: 'allocated' });
};
