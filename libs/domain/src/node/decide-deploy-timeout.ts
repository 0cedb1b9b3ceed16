import { accept, type Decision } from '../core';
import type { CheckDeployTimeout } from './health-commands';
import type { NodeEvent } from './node-events';
import type { NodeReply, NodeState } from './node-state';

/** When a deployment that started at `startedAt` becomes overdue. */
export const deployDeadline = (startedAt: string, timeoutSeconds: number): string => new Date(Date.parse(startedAt) + timeoutSeconds * 1000).toISOString();

/**
 * The timer only asks; the node's own stream answers. A deployment reported started
 * that has not finished by its deadline faults the node (deploy_timeout). The fault
 * clears itself when the deployment finishes or the allocation ends (see health follow-ups).
 */
export const decideDeployTimeout = (command: CheckDeployTimeout, state: NodeState): Decision<NodeEvent, NodeReply> => {
  const { nodeId } = command;
  const deployment = state.health.deployment;
  if (!deployment || state.allocation?.token !== deployment.token) return accept([], { nodeId, status: 'not_deploying' });
  const reply = { nodeId, token: deployment.token, epoch: deployment.epoch };
  if (state.health.faults.deploy_timeout) return accept([], { ...reply, status: 'faulted' });
  const deadline = deployDeadline(deployment.startedAt, command.timeoutSeconds);
  if (Date.parse(command.now) < Date.parse(deadline)) return accept([], { ...reply, status: 'deploying' });
  return accept(
    [
      {
        type: 'NodeFaulted',
        data: {
          nodeId,
          fault: 'deploy_timeout',
          since: deadline,
          error: `deployment started at ${deployment.startedAt} did not finish within ${command.timeoutSeconds} s`,
          token: deployment.token,
        },
      },
    ],
    { ...reply, status: 'faulted' },
  );
};
