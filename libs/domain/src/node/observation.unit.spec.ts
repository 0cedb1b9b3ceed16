import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FAILED_DEPLOYMENT_STATUSES, POOL_STATUSES, normaliseProviderStatus } from './decide-observation';
import { nodeDecider } from './node-decider';
import {
  NODE,
  acquireNode,
  allocationReleased,
  allocationRevoked,
  at,
  deploymentFailed,
  deploymentStarted,
  nodeAcquired,
  nodeDeployed,
  nodeEnlisted,
  nodeReserved,
  observeProviderStatus,
  specFor,
  tokenFor,
} from '../testing';

/**
 * A provider (MAAS, Ironic) reports what it sees. Seed 1 is an operator releasing a node in
 * MAAS behind Juju's back: when the provider shows a held node back in its pool, the ledger
 * revokes the live allocation, so its token goes stale and its holder is told to forget the
 * machine. A failed deployment is recorded, even after a reported success. An observation
 * made before the live allocation began says nothing about it and is ignored, so a late
 * message can never take the machine away from its next holder.
 */
const spec = specFor(nodeDecider);
const token = tokenFor(1, 'alice');
const acquiredAtMinute1 = [nodeEnlisted(), nodeAcquired('alice', { at: at(1) })];
const IGNORED = { nodeId: NODE, status: 'ignored' };

describe('a provider reporting a held node back in its pool', () => {
  for (const status of POOL_STATUSES) {
    it(`revokes the live allocation on "${status}"`, () => {
      spec
        .given(acquiredAtMinute1)
        .when(observeProviderStatus(status, at(5), { source: 'maas-region-1' }))
        .then([allocationRevoked(token, status, at(5), 'maas-region-1')])
        .thenReplies({ nodeId: NODE, token, epoch: 1, status: 'revoked' });
    });
  }

  it('revokes whatever state the allocation is in, including failed_deployment (seed 1)', () => {
    spec
      .given([...acquiredAtMinute1, deploymentStarted(token, at(2)), deploymentFailed(token, { at: at(3) })])
      .when(observeProviderStatus('Ready', at(5)))
      .then([allocationRevoked(token, 'ready', at(5))]);
    spec
      .given([...acquiredAtMinute1, nodeDeployed(token, at(3))])
      .when(observeProviderStatus('Released', at(5)))
      .then([allocationRevoked(token, 'released', at(5))]);
  });

  it('revokes it when the provider says someone outside the ledger holds it, whatever the status (re-owned behind its back)', () => {
    for (const status of ['Allocated', 'Deployed', 'Failed deployment']) {
      spec
        .given([...acquiredAtMinute1, deploymentStarted(token, at(2))])
        .when(observeProviderStatus(status, at(5), { heldOutOfBand: true, source: 'maas-facade: owned by charlie' }))
        .then([allocationRevoked(token, normaliseProviderStatus(status), at(5), 'maas-facade: owned by charlie')])
        .thenReplies({ nodeId: NODE, token, epoch: 1, status: 'revoked' });
    }
    spec
      .given([nodeEnlisted()])
      .when(observeProviderStatus('Allocated', at(5), { heldOutOfBand: true }))
      .thenNothingHappens()
      .thenReplies(IGNORED);
    spec
      .given(acquiredAtMinute1)
      .when(observeProviderStatus('Allocated', at(0), { heldOutOfBand: true, now: at(5) }))
      .thenNothingHappens();
  });

  it('frees the node: the next acquire gets the next epoch', () => {
    spec
      .given([...acquiredAtMinute1, allocationRevoked(token, 'ready', at(5))])
      .when(acquireNode('bob', { now: at(6) }))
      .then([nodeAcquired('bob', { epoch: 2, at: at(6) })]);
  });
});

describe('a provider reporting a failed deployment', () => {
  it('records it on the live allocation, naming the provider status as the reason', () => {
    spec
      .given([...acquiredAtMinute1, deploymentStarted(token, at(2))])
      .when(observeProviderStatus('Failed Deployment', at(5)))
      .then([deploymentFailed(token, { reason: 'provider reported failed_deployment', source: 'maas', at: at(5) })])
      .thenReplies({ token, epoch: 1, status: 'failed_deployment' });
  });

  it('records it even after the deployment was reported successful (seed 1)', () => {
    spec
      .given([...acquiredAtMinute1, deploymentStarted(token, at(2)), nodeDeployed(token, at(3))])
      .when(observeProviderStatus('FAILED_DEPLOYMENT', at(5)))
      .then([deploymentFailed(token, { reason: 'provider reported failed_deployment', source: 'maas', at: at(5) })]);
  });

  it('understands Ironic\'s "deploy failed" too', () => {
    spec
      .given(acquiredAtMinute1)
      .when(observeProviderStatus('deploy failed', at(5), { source: 'ironic' }))
      .then([deploymentFailed(token, { reason: 'provider reported deploy_failed', source: 'ironic', at: at(5) })]);
  });

  it('ignores it when the failure is already recorded', () => {
    spec
      .given([...acquiredAtMinute1, deploymentFailed(token, { at: at(3) })])
      .when(observeProviderStatus('Failed Deployment', at(5)))
      .thenNothingHappens()
      .thenReplies(IGNORED);
  });
});

describe('observations the ledger ignores', () => {
  it('anything made before the live allocation began: a late "ready" cannot revoke the next holder (seed 1)', () => {
    const bobs = tokenFor(2, 'bob');
    const bobHoldsItFromMinute6 = [
      ...acquiredAtMinute1,
      allocationRevoked(token, 'ready', at(5)),
      nodeAcquired('bob', { epoch: 2, at: at(6) }),
      nodeDeployed(bobs, at(8)),
    ];
    spec
      .given(bobHoldsItFromMinute6)
      .when(observeProviderStatus('Ready', at(5), { now: at(9) }))
      .thenNothingHappens()
      .thenReplies(IGNORED);
    spec
      .given(bobHoldsItFromMinute6)
      .when(observeProviderStatus('Failed Deployment', at(4), { now: at(9) }))
      .thenNothingHappens();
  });

  it('counts an observation made at the very instant of the acquire as about the allocation', () => {
    spec
      .given(acquiredAtMinute1)
      .when(observeProviderStatus('Ready', at(1)))
      .then([allocationRevoked(token, 'ready', at(1))]);
  });

  it('anything about a node nobody holds', () => {
    spec
      .given([nodeEnlisted()])
      .when(observeProviderStatus('Ready', at(5)))
      .thenNothingHappens()
      .thenReplies(IGNORED);
    spec
      .given([nodeEnlisted(), nodeReserved()])
      .when(observeProviderStatus('Ready', at(5)))
      .thenNothingHappens();
    spec
      .given([...acquiredAtMinute1, allocationReleased(token, { at: at(3) })])
      .when(observeProviderStatus('Failed Deployment', at(5)))
      .thenNothingHappens();
  });

  for (const status of ['Deploying', 'Deployed', 'Allocated', 'Testing', 'Rescue mode', 'active', 'something new']) {
    it(`a status that neither frees nor fails the node: "${status}"`, () => {
      spec
        .given(acquiredAtMinute1)
        .when(observeProviderStatus(status, at(5)))
        .thenNothingHappens()
        .thenReplies(IGNORED);
    });
  }
});

describe('provider statuses', () => {
  it('are compared after normalising case, spaces and dashes', () => {
    assert.equal(normaliseProviderStatus('Failed Deployment'), 'failed_deployment');
    assert.equal(normaliseProviderStatus('FAILED_DEPLOYMENT'), 'failed_deployment');
    assert.equal(normaliseProviderStatus('failed-deployment'), 'failed_deployment');
    assert.equal(normaliseProviderStatus('  Ready '), 'ready');
    assert.equal(normaliseProviderStatus('deploy  failed'), 'deploy_failed');
  });

  it('that mean "in the pool" and "failed" do not overlap', () => {
    for (const status of FAILED_DEPLOYMENT_STATUSES) assert.equal(POOL_STATUSES.has(status), false, status);
  });

  it('are recorded normalised on the revocation', () => {
    spec
      .given(acquiredAtMinute1)
      .when(observeProviderStatus(' New ', at(5)))
      .then([allocationRevoked(token, 'new', at(5))]);
  });
});
