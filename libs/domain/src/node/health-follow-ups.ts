import type { Decision } from '../core';
import type { NodeEvent } from './node-events';
import type { NodeReply, NodeState } from './node-state';
import { evolveNode } from './evolve-node';
import { blocksProviderWork } from './health-state';

/**
 * Faults clear themselves. After any decision that changes the node, the health
 * consequences are appended in the same write, so no fault and no pending cleanup
 * outlives its cause by even one event:
 * - a deploy_timeout whose deployment finished, or whose allocation ended, clears;
 * - cleanup a release left pending is done once no fault blocks the provider.
 */
export const withHealthFollowUps = (decision: Decision<NodeEvent, NodeReply>, state: NodeState, now: string): Decision<NodeEvent, NodeReply> => {
  if (decision.outcome !== 'accepted' || decision.events.length === 0) return decision;
  let after = decision.events.reduce(evolveNode, state);
  const followUps: NodeEvent[] = [];
  const append = (event: NodeEvent) => {
    followUps.push(event);
    after = evolveNode(after, event);
  };
  const nodeId = after.nodeId!;

  const timedOut = after.health.faults.deploy_timeout;
  if (timedOut && after.health.deployment?.token !== timedOut.token) {
    const cause = after.allocation?.token === timedOut.token ? 'deployment_finished' : 'allocation_ended';
    append({ type: 'FaultCleared', data: { nodeId, fault: 'deploy_timeout', at: now, cause } });
  }
  const pending = after.health.pendingCleanup;
  if (pending && !blocksProviderWork(after.health)) {
    append({ type: 'PendingCleanupDone', data: { nodeId, token: pending.token, epoch: pending.epoch, steps: [...pending.steps], at: now } });
  }
  return followUps.length === 0 ? decision : { ...decision, events: [...decision.events, ...followUps] };
};
