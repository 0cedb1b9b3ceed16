import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodeDecider } from './node-decider';
import { RESERVATION, acquireNode, at, enlistNode, nodeAcquired, nodeReserved, reservationExpired, reserveNode, stamp, storyFor, tokenFor } from '../testing';

/**
 * Seed 3: the OpenStack Autopilot lets the user pick machines, then bootstraps Juju onto
 * them. Between picking and acquiring, another MAAS user could take a picked machine. With
 * the ledger, the autopilot reserves each machine for its agent with a secret key and hands
 * the key to Juju; acquiring by name with the key consumes the reservation atomically, and
 * everyone else gets a conflict until the reservation is consumed, cancelled or expires.
 */
describe('seed 3: nodes reserved for an agent', () => {
  it('only the key holder acquires the node; everyone else is refused', () => {
    const story = storyFor(nodeDecider);
    story.when(enlistNode());

    // The user picks elkhart in the autopilot, which reserves it for its agent until 12:30.
    story
      .when(reserveNode({ now: at(0) }))
      .then([nodeReserved()])
      .thenReplies({ reservationId: 'res-1', expiresAt: at(30) });

    // Another MAAS user (Alice's model) asks for the same machine while the autopilot bootstraps.
    story.when(acquireNode('alice', { now: at(2) })).thenRefuses('node_reserved', { expiresAt: at(30) });
    story.when(acquireNode('alice', { reservationKeyHash: 'sha256-of-a-guess', now: at(3) })).thenRefuses('reservation_mismatch');
    // Another tool cannot take over the hold either.
    story.when(reserveNode({ reservationId: 'res-2', agentName: 'landscape', keyHash: 'sha256-of-key-2', now: at(4) })).thenRefuses('node_reserved');

    // Juju, bootstrapped with the autopilot's key, acquires it by name: the reservation is consumed in the same event.
    story
      .when(acquireNode('carol', { reservationKeyHash: RESERVATION.keyHash, now: at(5) }))
      .then([nodeAcquired('carol', { at: at(5), reservationId: 'res-1' })])
      .thenReplies({ token: tokenFor(1, 'carol'), epoch: 1, status: 'allocated' });
    assert.equal(story.state.reservation, null);

    // A second acquire with the same key (Juju racing with itself) finds the node taken.
    const racingItself = acquireNode('carol', { reservationKeyHash: RESERVATION.keyHash, request: stamp('another-add-machine'), now: at(6) });
    story.when(racingItself).thenRefuses('node_unavailable');
    story.when(acquireNode('alice', { now: at(7) })).thenRefuses('node_unavailable');
  });

  it("a reservation nobody uses lapses, and then the node is anyone's", () => {
    const story = storyFor(nodeDecider);
    story.when(enlistNode());
    story.when(reserveNode({ now: at(0), expiresAt: at(30) }));

    story.when(acquireNode('alice', { now: at(29) })).thenRefuses('node_reserved');
    story.when(acquireNode('alice', { now: at(31) })).then([reservationExpired('res-1', at(30)), nodeAcquired('alice', { at: at(31) })]);
  });
});
