import { accept, refuse, type Decision } from '../core';
import type { MarkDeployed, MarkDeploymentFailed, StartDeployment } from './node-commands';
import type { NodeEvent } from './node-events';
import type { AllocationStatus, LiveAllocation, NodeReply } from './node-state';

type DeploymentCommand = StartDeployment | MarkDeployed | MarkDeploymentFailed;
type ReportedStatus = 'deploying' | 'deployed' | 'failed_deployment';

/** Which status each report moves to, and from which statuses it may come. */
const TRANSITIONS: Record<DeploymentCommand['type'], { to: ReportedStatus; from: AllocationStatus[] }> = {
  StartDeployment: { to: 'deploying', from: ['allocated', 'failed_deployment'] },
  MarkDeployed: { to: 'deployed', from: ['allocated', 'deploying'] },
  // A provider may report failure after it first said the deployment succeeded (seed 1).
  MarkDeploymentFailed: { to: 'failed_deployment', from: ['allocated', 'deploying', 'deployed'] },
};

const eventFor = (command: DeploymentCommand, allocation: LiveAllocation): NodeEvent => {
  const base = {
    nodeId: command.nodeId,
    token: allocation.token,
    epoch: allocation.epoch,
    ...(command.request ? { request: command.request } : {}),
    at: command.now,
  };
  switch (command.type) {
    case 'StartDeployment':
      return { type: 'DeploymentStarted', data: base };
    case 'MarkDeployed':
      return { type: 'NodeDeployed', data: base };
    case 'MarkDeploymentFailed':
      return { type: 'DeploymentFailed', data: { ...base, reason: command.reason, source: command.source } };
  }
};

/** Deployment progress on a fenced allocation. Reporting the status it already has is a no-op. */
export const decideDeployment = (command: DeploymentCommand, allocation: LiveAllocation): Decision<NodeEvent, NodeReply> => {
  const { to, from } = TRANSITIONS[command.type];
  const reply = { nodeId: command.nodeId, token: allocation.token, epoch: allocation.epoch, status: to };
  if (allocation.status === to) {
    if (!command.request) return accept([], reply);
    const { nodeId, now: at, request } = command;
    return accept([{ type: 'DeploymentReportRepeated', data: { nodeId, token: allocation.token, epoch: allocation.epoch, status: to, request, at } }], reply);
  }
  if (!from.includes(allocation.status)) {
    return refuse('wrong_state', `allocation is ${allocation.status}; cannot become ${to}`, { status: allocation.status });
  }
  return accept([eventFor(command, allocation)], reply);
};
