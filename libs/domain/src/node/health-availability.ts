import { refuse, type Refusal } from '../core';
import type { NodeState } from './node-state';
import { activeFaults } from './health-state';

/**
 * Why the node's health forbids handing it out (acquire, reserve), or null. Maintenance
 * is named first: it lasts until an operator ends it, while faults clear themselves.
 * A node whose released allocation still has cleanup pending is not handed out either.
 */
export const healthUnavailability = (state: NodeState): Refusal | null => {
  const { maintenance, pendingCleanup, faults } = state.health;
  if (maintenance) {
    return refuse('node_in_maintenance', `node ${state.nodeId} is in maintenance: ${maintenance.reason}`, { ...maintenance }).refusal;
  }
  const names = activeFaults(state.health);
  if (names.length > 0 || pendingCleanup) {
    return refuse('node_faulted', `node ${state.nodeId} is faulted (${names.join(', ') || 'cleanup pending'}); it recovers by itself`, {
      faults: names.map((name) => ({ fault: name, since: faults[name]!.since, lastError: faults[name]!.lastError })),
      pendingCleanup: pendingCleanup?.steps ?? [],
    }).refusal;
  }
  return null;
};
