import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodeDecider } from '../node';
import { specFor, storyFor } from './decider-specification';
import { acquireNode, enlistNode, nodeAcquired, nodeEnlisted, tokenFor } from './node-fixtures';

// The helper must fail when the decision is not what the spec says, or every spec using it is worthless.
describe('the given/when/then helper', () => {
  const spec = specFor(nodeDecider);

  it('passes when the decision matches and fails when it does not', () => {
    spec
      .given([nodeEnlisted()])
      .when(acquireNode('alice'))
      .then([nodeAcquired('alice', { at: acquireNode('alice').now })]);
    assert.throws(() => spec.given([nodeEnlisted()]).when(acquireNode('alice')).then([]));
    assert.throws(() => spec.given([nodeEnlisted()]).when(acquireNode('alice')).thenNothingHappens());
    assert.throws(() => spec.given([nodeEnlisted()]).when(acquireNode('alice')).thenRefuses('node_unavailable'));
  });

  it('checks only the reply fields named, but all of them', () => {
    const when = spec.given([nodeEnlisted()]).when(acquireNode('alice'));
    when.thenReplies({ epoch: 1, status: 'allocated' });
    assert.throws(() => when.thenReplies({ epoch: 2 }));
    assert.throws(() => when.thenReplies({ reservationId: 'res-1' }), 'a field the reply lacks is a mismatch');
  });

  it('checks the refusal code and the details named', () => {
    const when = spec.given([nodeEnlisted(), nodeAcquired('alice')]).when(acquireNode('bob'));
    when.thenRefuses('node_unavailable', { epoch: 1 });
    assert.throws(() => when.thenRefuses('node_reserved'));
    assert.throws(() => when.thenRefuses('node_unavailable', { epoch: 2 }));
    assert.throws(() => when.then([]), 'a refusal is not an acceptance');
    assert.throws(() => when.reply);
  });

  it('a story folds accepted events and leaves state alone on a refusal', () => {
    const story = storyFor(nodeDecider);
    story.when(enlistNode()).then([nodeEnlisted()]);
    assert.equal(story.when(acquireNode('alice')).reply.token, tokenFor(1, 'alice'));
    const before = story.state;
    story.when(acquireNode('bob')).thenRefuses('node_unavailable');
    assert.equal(story.state, before);
    assert.equal(story.events.length, 2);
  });
});
