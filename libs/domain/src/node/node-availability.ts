import { refuse, type Refusal } from '../core';
import type { NodeState } from './node-state';
import { healthUnavailability } from './health-availability';

/** Why a node cannot be handed to anyone right now (reservations aside), or null: held, in maintenance, faulted. */
export const unavailability = (state: NodeState): Refusal | null => {
  if (state.allocation) {
    return refuse('node_unavailable', `node ${state.nodeId} is allocated`, { epoch: state.allocation.epoch }).refusal;
  }
  return healthUnavailability(state);
};
