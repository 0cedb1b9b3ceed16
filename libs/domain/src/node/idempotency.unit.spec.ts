import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nodeDecider } from './node-decider';
import {
  NODE,
  RESERVATION,
  acquireNode,
  allocationReleased,
  allocationRevoked,
  at,
  deploymentFailed,
  deploymentStarted,
  entropy,
  markDeployed,
  nodeAcquired,
  nodeDeployed,
  nodeEnlisted,
  nodeReserved,
  releaseAllocation,
  specFor,
  stamp,
  startDeployment,
  tokenFor,
} from '../testing';

/**
 * Invariant 9: a client that did not hear the answer retries with the same requestId, and
 * gets the answer the first attempt got, with nothing appended. The fingerprint is a digest
 * of the request body: the same requestId with a different body is a client bug, refused
 * as request_conflict. Acquire, release and deployment reports remember their requestId in
 * the event they append.
 */
const spec = specFor(nodeDecider);
const alices = tokenFor(1, 'alice');
const acquiredByAlice = [nodeEnlisted(), nodeAcquired('alice', { request: stamp('req-a', 'fp-a') })];
const aliceAcquireReply = { nodeId: NODE, token: alices, epoch: 1, status: 'allocated' };

describe('retrying an acquire', () => {
  const retry = acquireNode('alice', { request: stamp('req-a', 'fp-a'), tokenEntropy: entropy('retry'), now: at(12) });

  it('with the same requestId and body gets the same token back and appends nothing', () => {
    spec.given(acquiredByAlice).when(retry).thenNothingHappens().thenReplies(aliceAcquireReply);
  });

  it('gets the same answer even after the allocation ended and someone else holds the node', () => {
    const later = [...acquiredByAlice, allocationRevoked(alices, 'ready', at(5)), nodeAcquired('bob', { epoch: 2, at: at(6) })];
    spec.given(later).when(retry).thenNothingHappens().thenReplies(aliceAcquireReply);
  });

  it('says the answer is a replay and what became of the token since (issue 10, item 7)', () => {
    spec.given(acquiredByAlice).when(retry).thenReplies({ ...aliceAcquireReply, replayed: true, live: true, ending: null });
    const revoked = [...acquiredByAlice, allocationRevoked(alices, 'ready', at(5))];
    spec.given(revoked).when(retry).thenReplies({ ...aliceAcquireReply, replayed: true, live: false, ending: { kind: 'revoked' } });
    const released = [...acquiredByAlice, allocationReleased(alices, { ending: 'model_released' })];
    spec.given(released).when(retry).thenReplies({ replayed: true, live: false, ending: { kind: 'model_released' } });
  });

  it('is not marked replayed the first time', () => {
    const first = spec.given([nodeEnlisted()]).when(retry).reply;
    assert.equal(first.replayed, undefined);
  });

  it('gets the same answer even while the node is reserved for someone else', () => {
    const later = [...acquiredByAlice, allocationReleased(alices), nodeReserved()];
    spec.given(later).when(retry).thenNothingHappens().thenReplies(aliceAcquireReply);
  });

  it('with the same requestId and a different body is refused: request_conflict', () => {
    spec
      .given(acquiredByAlice)
      .when(acquireNode('bob', { request: stamp('req-a', 'fp-of-another-body') }))
      .thenRefuses('request_conflict');
  });

  it('that was refused the first time is decided afresh (a refusal is not remembered)', () => {
    const request = stamp('req-b', 'fp-b');
    spec.given(acquiredByAlice).when(acquireNode('bob', { request })).thenRefuses('node_unavailable');
    spec
      .given([...acquiredByAlice, allocationReleased(alices)])
      .when(acquireNode('bob', { request }))
      .then([nodeAcquired('bob', { epoch: 2, at: at(10), request })]);
  });

  it('that consumed a reservation gets the same answer without the key being checked again', () => {
    const request = stamp('req-c', 'fp-c');
    const history = [nodeEnlisted(), nodeReserved(), nodeAcquired('carol', { reservationId: RESERVATION.reservationId, request })];
    spec
      .given(history)
      .when(acquireNode('carol', { request, reservationKeyHash: RESERVATION.keyHash }))
      .thenNothingHappens()
      .thenReplies({ token: tokenFor(1, 'carol'), epoch: 1 });
  });
});

describe('retrying a release', () => {
  const released = [...acquiredByAlice, allocationReleased(alices, { request: stamp('rel-a', 'fp-rel-a') })];

  it('with the same requestId and body gets the same answer instead of stale_token, and appends nothing', () => {
    spec
      .given(released)
      .when(releaseAllocation(alices, { request: stamp('rel-a', 'fp-rel-a'), now: at(30) }))
      .thenNothingHappens()
      .thenReplies({ nodeId: NODE, token: alices, epoch: 1, status: 'released' });
  });

  it('gets the same answer even after the node has a new holder', () => {
    spec
      .given([...released, nodeAcquired('bob', { epoch: 2, at: at(20) })])
      .when(releaseAllocation(alices, { request: stamp('rel-a', 'fp-rel-a') }))
      .thenNothingHappens()
      .thenReplies({ token: alices, status: 'released' });
  });

  it('remembers how it ended', () => {
    const forced = [...acquiredByAlice, allocationReleased(alices, { ending: 'force_released', request: stamp('rel-f', 'fp-f') })];
    spec
      .given(forced)
      .when(releaseAllocation(alices, { ending: 'force_released', request: stamp('rel-f', 'fp-f') }))
      .thenNothingHappens()
      .thenReplies({ status: 'force_released' });
  });

  it('with the same requestId and a different body is refused: request_conflict', () => {
    spec
      .given(released)
      .when(releaseAllocation(alices, { ending: 'force_released', request: stamp('rel-a', 'fp-of-another-body') }))
      .thenRefuses('request_conflict');
  });
});

describe('retrying a deployment report', () => {
  const started = [...acquiredByAlice, deploymentStarted(alices, at(10), stamp('dep-a', 'fp-dep-a'))];

  it('records the request it came with', () => {
    spec
      .given(acquiredByAlice)
      .when(startDeployment(alices, { request: stamp('dep-a', 'fp-dep-a') }))
      .then([deploymentStarted(alices, at(10), stamp('dep-a', 'fp-dep-a'))]);
  });

  it('gets the same answer even after the deployment moved on (instead of wrong_state)', () => {
    spec
      .given([...started, nodeDeployed(alices)])
      .when(startDeployment(alices, { request: stamp('dep-a', 'fp-dep-a'), now: at(30) }))
      .thenNothingHappens()
      .thenReplies({ nodeId: NODE, token: alices, epoch: 1, status: 'deploying' });
  });

  it('with the same requestId and a different body is refused: request_conflict', () => {
    spec.given(started).when(markDeployed(alices, { request: stamp('dep-a', 'fp-of-another-body') })).thenRefuses('request_conflict');
  });

  it('keeps its requestId from being reused by a release with another body', () => {
    spec.given(started).when(releaseAllocation(alices, { request: stamp('dep-a', 'fp-rel') })).thenRefuses('request_conflict');
  });

  it('a repeated report (the allocation already had that status) is recorded, so its retry is answered the same', () => {
    const repeat = startDeployment(alices, { request: stamp('dep-again', 'fp-again'), now: at(20) });
    spec
      .given(started)
      .when(repeat)
      .then([{ type: 'DeploymentReportRepeated', data: { nodeId: NODE, token: alices, epoch: 1, status: 'deploying', request: stamp('dep-again', 'fp-again'), at: at(20) } }]);
    // Later the deployment fails; the retried report must not start a new deployment.
    const afterwards = [
      ...started,
      { type: 'DeploymentReportRepeated' as const, data: { nodeId: NODE, token: alices, epoch: 1, status: 'deploying' as const, request: stamp('dep-again', 'fp-again'), at: at(20) } },
      deploymentFailed(alices),
    ];
    spec.given(afterwards).when({ ...repeat, now: at(40) }).thenNothingHappens().thenReplies({ status: 'deploying' });
  });

  it('a repeated report without a requestId stays a plain no-op', () => {
    spec.given(started).when(startDeployment(alices, { now: at(20) })).thenNothingHappens();
  });
});

describe('one requestId names one request', () => {
  it('reusing an acquire\'s requestId for a release is request_conflict, and the allocation stays live', () => {
    spec.given(acquiredByAlice).when(releaseAllocation(alices, { request: stamp('req-a', 'fp-rel') })).thenRefuses('request_conflict');
  });

  it('a release whose requestId was never used is decided normally', () => {
    spec
      .given(acquiredByAlice)
      .when(releaseAllocation(alices, { request: stamp('rel-new', 'fp-new') }))
      .then([allocationReleased(alices, { request: stamp('rel-new', 'fp-new') })]);
  });
});
