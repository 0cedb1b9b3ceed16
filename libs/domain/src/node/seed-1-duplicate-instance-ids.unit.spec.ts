import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodeDecider } from './node-decider';
import {
  CONSUMERS,
  NODE,
  acquireNode,
  allocationReleased,
  allocationRevoked,
  at,
  deploymentFailed,
  deploymentStarted,
  enlistNode,
  markDeployed,
  markDeploymentFailed,
  nodeAcquired,
  nodeDeployed,
  nodeEnlisted,
  observeProviderStatus,
  releaseAllocation,
  startDeployment,
  storyFor,
  tokenFor,
} from '../testing';

/**
 * Seed 1, "Fair Clouds": Alice's unit fails to deploy and she goes to lunch; Charlie fixes
 * the machine and releases it in MAAS; Bob's model acquires and deploys it. When Alice
 * comes back and cleans up her failed machine, Juju used to stop Bob's. With the ledger,
 * every acquire has its own token, the out-of-band release revokes Alice's, and her
 * clean-up is refused with an instruction to forget the machine: Bob is untouched.
 */
describe('seed 1: two models, one machine, and an out-of-band release', () => {
  it("Alice's stale instance id can never touch Bob's machine", () => {
    const story = storyFor(nodeDecider);
    const alices = tokenFor(1, 'alice');
    const bobs = tokenFor(2, 'bob');

    story.when(enlistNode()).then([nodeEnlisted()]);

    // 11:58 Alice adds a unit to "mobile-app"; Juju acquires a machine and stores the token as its instance id.
    assert.equal(story.when(acquireNode('alice', { now: at(-2) })).reply.token, alices);
    story.when(startDeployment(alices, { now: at(-1) })).then([deploymentStarted(alices, at(-1))]);

    // 12:05 MAAS reports the deployment failed. Alice is at lunch.
    story
      .when(observeProviderStatus('Failed Deployment', at(5)))
      .then([deploymentFailed(alices, { reason: 'provider reported failed_deployment', source: 'maas', at: at(5) })]);

    // 12:20 Charlie fixes the machine and releases it in MAAS, behind Juju's back. MAAS reports it Ready.
    story.when(observeProviderStatus('Ready', at(20))).then([allocationRevoked(alices, 'ready', at(20))]);

    // 12:40 Bob's model "show-me-the-money" scales up and gets the machine: a new token, the next epoch.
    story.when(acquireNode('bob', { now: at(40) })).then([nodeAcquired('bob', { epoch: 2, at: at(40) })]);
    story.when(startDeployment(bobs, { now: at(41) })).then([deploymentStarted(bobs, at(41))]);
    story.when(markDeployed(bobs, { now: at(50) })).then([nodeDeployed(bobs, at(50))]);

    // A "ready" that MAAS saw at 12:20 but that arrives only now is about Alice's allocation, not Bob's.
    story.when(observeProviderStatus('Ready', at(20), { now: at(55) })).thenNothingHappens();

    // 13:30 Alice is back and removes her failed machine. Juju would release the node: refused.
    const forget = { nodeId: 'elkhart', tokenEpoch: 1, currentEpoch: 2, ending: 'revoked', action: 'forget this machine; do not touch the node' };
    story.when(releaseAllocation(alices, { now: at(90) })).thenRefuses('stale_token', forget);
    story.when(releaseAllocation(alices, { ending: 'force_released', now: at(91) })).thenRefuses('stale_token', forget);
    // Nor can her retries of the deployment reach the node.
    story.when(startDeployment(alices, { now: at(92) })).thenRefuses('stale_token', forget);
    story.when(markDeploymentFailed(alices, { now: at(93) })).thenRefuses('stale_token', forget);
    story
      .when({ type: 'SetOwnerData', nodeId: NODE, token: alices, now: at(94), request: null, ownerData: { 'juju-machine-id': '87' } })
      .thenRefuses('stale_token', forget);

    // Bob's allocation is exactly as he left it, and his token still works.
    assert.deepEqual(story.state.allocation, {
      token: bobs,
      epoch: 2,
      consumer: CONSUMERS.bob,
      status: 'deployed',
      acquiredAt: at(40),
      reservationId: null,
      ownerData: {},
    });
    assert.deepEqual(story.state.issuedTokens.toJS(), { [alices]: { epoch: 1, ending: 'revoked' }, [bobs]: { epoch: 2, ending: null } });
    story.when(releaseAllocation(bobs, { now: at(120) })).then([allocationReleased(bobs, { at: at(120) })]);
  });

  it("the same holds when Charlie's release reaches the ledger only after Bob has the node", () => {
    // If Bob acquires before the ledger hears about the release, the node is still Alice's in the ledger,
    // so Bob is refused rather than handed a machine someone else holds.
    const story = storyFor(nodeDecider);
    story.when(enlistNode());
    story.when(acquireNode('alice', { now: at(0) }));
    story.when(observeProviderStatus('Failed Deployment', at(5)));
    story.when(acquireNode('bob', { now: at(30) })).thenRefuses('node_unavailable', { epoch: 1 });
    story.when(observeProviderStatus('Ready', at(20), { now: at(31) })).thenReplies({ status: 'revoked' });
    story.when(acquireNode('bob', { now: at(32) })).thenReplies({ epoch: 2, token: tokenFor(2, 'bob') });
  });
});
