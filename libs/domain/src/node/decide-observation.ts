import { accept, type Decision } from '../core';
import type { ObserveProviderStatus } from './node-commands';
import type { NodeEvent } from './node-events';
import type { NodeReply, NodeState } from './node-state';

/** Provider statuses that mean "this machine is back in the pool, nobody holds it". */
export const POOL_STATUSES: ReadonlySet<string> = new Set(['new', 'commissioning', 'ready', 'released', 'available', 'enroll', 'manageable']);
export const FAILED_DEPLOYMENT_STATUSES: ReadonlySet<string> = new Set(['failed_deployment', 'deploy_failed']);

export const normaliseProviderStatus = (status: string): string =>
  status
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/**
 * What a provider saw, applied to the live allocation (seed 1):
 * - back in the pool while held: the allocation was released out of band, revoke its token;
 * - held by someone outside the ledger (re-owned at the provider): revoke its token too;
 * - failed deployment: record it (the provider may say so after first reporting success).
 * An observation made before the live allocation began says nothing about it and is ignored,
 * so a late message can never revoke the next holder's machine.
 */
export const decideObservation = (command: ObserveProviderStatus, state: NodeState): Decision<NodeEvent, NodeReply> => {
  const status = normaliseProviderStatus(command.providerStatus);
  const allocation = state.allocation;
  const ignored = accept<NodeEvent, NodeReply>([], { nodeId: command.nodeId, status: 'ignored' });
  if (!allocation || Date.parse(command.observedAt) < Date.parse(allocation.acquiredAt)) return ignored;
  const base = { nodeId: command.nodeId, token: allocation.token, epoch: allocation.epoch };

  if (POOL_STATUSES.has(status) || command.heldOutOfBand === true) {
    return accept([{ type: 'AllocationRevoked', data: { ...base, providerStatus: status, source: command.source, observedAt: command.observedAt } }], {
      ...base,
      status: 'revoked',
    });
  }
  if (FAILED_DEPLOYMENT_STATUSES.has(status) && allocation.status !== 'failed_deployment') {
    return accept([{ type: 'DeploymentFailed', data: { ...base, reason: `provider reported ${status}`, source: command.source, at: command.observedAt } }], {
      ...base,
      status: 'failed_deployment',
    });
  }
  return ignored;
};
