import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldEvents } from '../core';
import { nodeDecider } from './node-decider';
import { specFor } from '../testing/decider-specification';
import {
  HEALTH_NODE,
  acquired,
  deployed,
  deploymentStarted,
  enlisted,
  faultCleared,
  nodeFaulted,
  observePower,
  powerFaulted,
  powerSyncRecovered,
  release,
  released,
  report,
  checkDeployTimeout,
  t,
  tokenOf,
} from '../testing/node-health-fixtures';
import type { NodeEvent } from './node-events';

/**
 * deploy_timeout: a deployment reported started that has not finished in time faults
 * the node. The ledger's timer only asks; this decider answers from the node's stream.
 * The fault clears itself when the deployment finishes or the allocation ends.
 */
const spec = specFor(nodeDecider);
const TIMEOUT = 600;
const deploying: NodeEvent[] = [enlisted(), acquired(), deploymentStarted(t(100))];
const timedOut = nodeFaulted('deploy_timeout', t(700), `deployment started at ${t(100)} did not finish within 600 s`, tokenOf(1));
const timedOutNode: NodeEvent[] = [...deploying, timedOut];

describe('deploy timeout', () => {
  it('does nothing while the deployment is within its time', () => {
    spec
      .given(deploying)
      .when(checkDeployTimeout(t(699), TIMEOUT))
      .thenNothingHappens()
      .thenReplies({ status: 'deploying', token: tokenOf(1) });
  });

  it('faults the node once the deadline has passed, since the deadline, naming the allocation', () => {
    spec
      .given(deploying)
      .when(checkDeployTimeout(t(700), TIMEOUT))
      .then([timedOut])
      .thenReplies({ nodeId: HEALTH_NODE, status: 'faulted' });
  });

  it('faults only once', () => {
    spec
      .given(timedOutNode)
      .when(checkDeployTimeout(t(900), TIMEOUT))
      .thenNothingHappens()
      .thenReplies({ status: 'faulted' });
  });

  it('does nothing for a node that is not deploying', () => {
    spec
      .given([enlisted()])
      .when(checkDeployTimeout(t(9999), TIMEOUT))
      .thenNothingHappens()
      .thenReplies({ status: 'not_deploying' });
    spec
      .given([enlisted(), acquired()])
      .when(checkDeployTimeout(t(9999), TIMEOUT))
      .thenNothingHappens();
    spec
      .given([...deploying, deployed(t(200))])
      .when(checkDeployTimeout(t(9999), TIMEOUT))
      .thenNothingHappens();
    spec
      .given([...deploying, released(t(200))])
      .when(checkDeployTimeout(t(9999), TIMEOUT))
      .thenNothingHappens();
  });

  it('clears itself when the deployment finishes', () => {
    spec
      .given(timedOutNode)
      .when(report('MarkDeployed', t(800)))
      .then([deployed(t(800)), faultCleared('deploy_timeout', t(800), 'deployment_finished')]);
  });

  it('clears itself when the deployment fails', () => {
    const failed: NodeEvent = {
      type: 'DeploymentFailed',
      data: { nodeId: HEALTH_NODE, token: tokenOf(1), epoch: 1, reason: 'curtin failed', source: 'maas', at: t(800) },
    };
    spec
      .given(timedOutNode)
      .when({ type: 'MarkDeploymentFailed', nodeId: HEALTH_NODE, token: tokenOf(1), reason: 'curtin failed', source: 'maas', now: t(800), request: null })
      .then([failed, faultCleared('deploy_timeout', t(800), 'deployment_finished')]);
  });

  it('clears itself when the provider reports the deployment failed', () => {
    const decision = spec.given(timedOutNode).when({
      type: 'ObserveProviderStatus',
      nodeId: HEALTH_NODE,
      providerStatus: 'Failed deployment',
      source: 'maas',
      observedAt: t(790),
      now: t(800),
    }).decision;
    assert.equal(decision.outcome, 'accepted');
    assert.deepEqual(decision.outcome === 'accepted' && decision.events.map((e) => e.type), ['DeploymentFailed', 'FaultCleared']);
  });

  it('clears itself when the allocation ends, and leaves no cleanup pending (the BMC answers)', () => {
    spec
      .given(timedOutNode)
      .when(release(t(800)))
      .then([released(t(800)), faultCleared('deploy_timeout', t(800), 'allocation_ended')])
      .thenReplies({ status: 'released' });
  });

  it('clears itself when the provider revokes the allocation', () => {
    spec
      .given(timedOutNode)
      .when({ type: 'ObserveProviderStatus', nodeId: HEALTH_NODE, providerStatus: 'Ready', source: 'maas', observedAt: t(790), now: t(800) })
      .then([
        { type: 'AllocationRevoked', data: { nodeId: HEALTH_NODE, token: tokenOf(1), epoch: 1, providerStatus: 'ready', source: 'maas', observedAt: t(790) } },
        faultCleared('deploy_timeout', t(800), 'allocation_ended'),
      ]);
  });

  it('times a redeployment from its own start', () => {
    const redeploying = [...timedOutNode, deployed(t(800)), faultCleared('deploy_timeout', t(800), 'deployment_finished')];
    const failedAgain: NodeEvent = {
      type: 'DeploymentFailed',
      data: { nodeId: HEALTH_NODE, token: tokenOf(1), epoch: 1, reason: 'x', source: 'maas', at: t(850) },
    };
    const history = [...redeploying, failedAgain, deploymentStarted(t(900))];
    spec
      .given(history)
      .when(checkDeployTimeout(t(1499), TIMEOUT))
      .thenNothingHappens();
    spec
      .given(history)
      .when(checkDeployTimeout(t(1500), TIMEOUT))
      .then([nodeFaulted('deploy_timeout', t(1500), `deployment started at ${t(900)} did not finish within 600 s`, tokenOf(1))]);
  });

  it('can be active together with a power_failure; each clears on its own', () => {
    const both = [...timedOutNode, ...powerFaulted()];
    const state = foldEvents(nodeDecider, both);
    assert.deepEqual(Object.keys(state.health.faults).sort(), ['deploy_timeout', 'power_failure']);
    spec
      .given(both)
      .when(observePower(true, t(40)))
      .then([powerSyncRecovered(t(40), 3), faultCleared('power_failure', t(40), 'power_sync_succeeded')]);
    const afterPower = foldEvents(nodeDecider, [...both, powerSyncRecovered(t(40), 3), faultCleared('power_failure', t(40), 'power_sync_succeeded')]);
    assert.deepEqual(Object.keys(afterPower.health.faults), ['deploy_timeout']);
  });
});
