import { describe, it } from 'node:test';
import type { NodeEvent } from './node-events';
import type { AllocationStatus } from './node-state';
import { nodeDecider } from './node-decider';
import {
  NODE,
  acquireNode,
  at,
  deploymentFailed,
  deploymentStarted,
  markDeployed,
  markDeploymentFailed,
  nodeAcquired,
  nodeDeployed,
  nodeEnlisted,
  specFor,
  startDeployment,
  tokenFor,
} from '../testing';

/**
 * Deployment progress is reported by the consumer or the provider against the live
 * allocation's token:  allocated -> deploying -> deployed, and failed_deployment from any
 * of those (a provider may say "failed" after first saying "deployed", seed 1). A failed
 * deployment may be started again. Reporting the status the allocation already has is a
 * no-op, so a report may safely be repeated.
 */
const spec = specFor(nodeDecider);
const token = tokenFor(1, 'alice');

const allocationThatIs: Record<AllocationStatus, NodeEvent[]> = {
  allocated: [nodeEnlisted(), nodeAcquired('alice')],
  deploying: [nodeEnlisted(), nodeAcquired('alice'), deploymentStarted(token, at(2))],
  deployed: [nodeEnlisted(), nodeAcquired('alice'), deploymentStarted(token, at(2)), nodeDeployed(token, at(3))],
  failed_deployment: [nodeEnlisted(), nodeAcquired('alice'), deploymentStarted(token, at(2)), deploymentFailed(token, { at: at(3) })],
};

const reports = {
  StartDeployment: { command: startDeployment(token), event: deploymentStarted(token), becomes: 'deploying' },
  MarkDeployed: { command: markDeployed(token), event: nodeDeployed(token), becomes: 'deployed' },
  MarkDeploymentFailed: {
    command: markDeploymentFailed(token, { reason: 'curtin failed', source: 'maas' }),
    event: deploymentFailed(token, { reason: 'curtin failed', source: 'maas' }),
    becomes: 'failed_deployment',
  },
} as const;

type Outcome = 'moves' | 'no-op' | 'wrong_state';

/** The whole rule, one row per current status, one column per report. */
const TRANSITIONS: Record<AllocationStatus, Record<keyof typeof reports, Outcome>> = {
  allocated: { StartDeployment: 'moves', MarkDeployed: 'moves', MarkDeploymentFailed: 'moves' },
  deploying: { StartDeployment: 'no-op', MarkDeployed: 'moves', MarkDeploymentFailed: 'moves' },
  deployed: { StartDeployment: 'wrong_state', MarkDeployed: 'no-op', MarkDeploymentFailed: 'moves' },
  failed_deployment: { StartDeployment: 'moves', MarkDeployed: 'wrong_state', MarkDeploymentFailed: 'no-op' },
};

describe('reporting deployment progress', () => {
  for (const [status, row] of Object.entries(TRANSITIONS) as [AllocationStatus, Record<keyof typeof reports, Outcome>][]) {
    for (const [report, outcome] of Object.entries(row) as [keyof typeof reports, Outcome][]) {
      const { command, event, becomes } = reports[report];
      const reply = { nodeId: NODE, token, epoch: 1, status: becomes };

      if (outcome === 'moves') {
        it(`${report} on an allocation that is ${status} makes it ${becomes}`, () => {
          spec.given(allocationThatIs[status]).when(command).then([event]).thenReplies(reply);
        });
      } else if (outcome === 'no-op') {
        it(`${report} on an allocation that is already ${status} is a no-op with the same reply`, () => {
          spec.given(allocationThatIs[status]).when(command).thenNothingHappens().thenReplies(reply);
        });
      } else {
        it(`${report} on an allocation that is ${status} is refused: wrong_state, naming the status`, () => {
          spec.given(allocationThatIs[status]).when(command).thenRefuses('wrong_state', { status });
        });
      }
    }
  }

  it('records who reported a failure and why', () => {
    spec
      .given(allocationThatIs.deployed)
      .when(markDeploymentFailed(token, { reason: 'node did not boot', source: 'maas', now: at(20) }))
      .then([deploymentFailed(token, { reason: 'node did not boot', source: 'maas', at: at(20) })]);
  });

  it('does not change who holds the node: another acquire is still node_unavailable', () => {
    spec.given(allocationThatIs.failed_deployment).when(acquireNode('bob')).thenRefuses('node_unavailable');
  });
});
