import { accept, type Decision } from '../core';
import type { ReleaseAllocation } from './node-commands';
import type { NodeEvent } from './node-events';
import type { LiveAllocation, NodeReply } from './node-state';

/** Ending an allocation is accepted in every condition of the node (seed 4). */
export const decideRelease = (command: ReleaseAllocation, allocation: LiveAllocation): Decision<NodeEvent, NodeReply> =>
  accept(
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
          pendingCleanup: [],
        },
      },
    ],
    { nodeId: command.nodeId, token: allocation.token, epoch: allocation.epoch, status: command.ending },
  );
