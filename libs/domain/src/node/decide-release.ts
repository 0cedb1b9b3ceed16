import { accept, type Decision } from '../core';
import type { ReleaseAllocation } from './node-commands';
import type { NodeEvent } from './node-events';
import type { LiveAllocation, NodeReply, NodeState } from './node-state';
import { blocksProviderWork, RELEASE_CLEANUP_STEPS } from './health-state';

/**
 * Ending an allocation is accepted in every condition of the node (seed 4). On a node
 * whose fault stops the provider, the provider-side cleanup is listed as pending; it is
 * done when the fault clears, and the node is not handed out before.
 */
export const decideRelease = (command: ReleaseAllocation, allocation: LiveAllocation, state: NodeState): Decision<NodeEvent, NodeReply> => {
  const pendingCleanup = blocksProviderWork(state.health) ? [...RELEASE_CLEANUP_STEPS] : [];
  return accept(
    [
      {
        type: 'AllocationReleased',
        data: {
          nodeId: command.nodeId,
          token: allocation.token,
          epoch: allocation.epoch,
          ending: command.ending,
          at: command.now,
          request: command.request,
          pendingCleanup,
        },
      },
    ],
    { nodeId: command.nodeId, token: allocation.token, epoch: allocation.epoch, status: command.ending, ...(pendingCleanup.length > 0 ? { pendingCleanup } : {}) },
  );
};
