import { accept, refuse, type Decision } from '../core';
import type { SetOwnerData } from './node-commands';
import type { NodeEvent } from './node-events';
import type { LiveAllocation, NodeReply } from './node-state';
import { applyOwnerData, MAX_OWNER_DATA_KEYS, ownerDataChange, ownerDataProblem } from './owner-data';

/**
 * Owner data on a fenced allocation (the fence has already refused a stale token). Only
 * what changes is recorded, so sending the same data again appends nothing; an
 * allocation holds at most MAX_OWNER_DATA_KEYS keys, whatever the number of requests.
 */
export const decideOwnerData = (command: SetOwnerData, allocation: LiveAllocation): Decision<NodeEvent, NodeReply> => {
  const problem = ownerDataProblem(command.ownerData);
  if (problem) return refuse('invalid_request', `ownerData ${problem}`);
  const change = ownerDataChange(allocation.ownerData, command.ownerData);
  const ownerData = applyOwnerData(allocation.ownerData, change);
  if (Object.keys(ownerData).length > MAX_OWNER_DATA_KEYS) {
    return refuse('invalid_request', `ownerData: an allocation holds at most ${MAX_OWNER_DATA_KEYS} keys; remove some first (an empty value removes a key)`);
  }
  const reply: NodeReply = { nodeId: command.nodeId, token: allocation.token, epoch: allocation.epoch, status: allocation.status, ownerData };
  if (Object.keys(change.set).length === 0 && change.removed.length === 0) return accept([], reply);
  const { nodeId, now: at } = command;
  return accept([{ type: 'AllocationOwnerDataSet', data: { nodeId, token: allocation.token, epoch: allocation.epoch, ...change, at } }], reply);
};
