import { accept, type Decision } from '../core';
import type { EndMaintenance, StartMaintenance } from './health-commands';
import type { NodeEvent } from './node-events';
import type { NodeReply, NodeState } from './node-state';

/**
 * Maintenance is an operator's facility, entered and left only by an operator's
 * command (seed 4): nothing automatic ever emits these events. Asking for what is
 * already so changes nothing (the first reason and operator stand).
 */
export const decideMaintenance = (command: StartMaintenance | EndMaintenance, state: NodeState): Decision<NodeEvent, NodeReply> => {
  const { nodeId, by, now } = command;
  const inMaintenance = state.health.maintenance !== null;
  if (command.type === 'StartMaintenance') {
    if (inMaintenance) return accept([], { nodeId, status: 'maintenance' });
    return accept([{ type: 'MaintenanceStarted', data: { nodeId, reason: command.reason, by, at: now } }], { nodeId, status: 'maintenance' });
  }
  if (!inMaintenance) return accept([], { nodeId, status: 'not_in_maintenance' });
  return accept([{ type: 'MaintenanceEnded', data: { nodeId, reason: command.reason, by, at: now } }], { nodeId, status: 'not_in_maintenance' });
};
