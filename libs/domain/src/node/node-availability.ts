import { refuse, type Refusal } from '../core';
import type { NodeState } from './node-state';

/** Why a node cannot be handed to anyone right now (reservations aside), or null. */
export const unavailability = (state: NodeState): Refusal | null => {
  if (state.allocation) {
    return refuse('node_unavailable', `node ${state.nodeId} is allocated`, { epoch: state.allocation.epoch }).refusal;
  }
  return null;
};
