import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('lets a burst through, then says how long to wait, and refills at the rate', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 3, () => now);
    assert.deepEqual(
      [1, 2, 3, 4].map(() => limiter.take('a')),
      [0, 0, 0, 1],
    );
    now = 500;
    assert.equal(limiter.take('a'), 0);
  });

  it('keeps at most maxKeys buckets, forgetting the least recently used', () => {
    const limiter = new RateLimiter(1, 1, () => 0, 2);
    limiter.take('a');
    limiter.take('b');
    limiter.take('a');
    limiter.take('c'); // drops b, the least recently used
    assert.equal(limiter.take('a'), 1, 'a is remembered: empty');
    assert.equal(limiter.take('b'), 0, 'b was forgotten: a fresh bucket');
  });

  it('measures time on a monotonic clock: a wall clock stepped back an hour drains nothing', (t) => {
    let wall = Date.now();
    t.mock.method(Date, 'now', () => wall);
    const limiter = new RateLimiter(10, 5);
    assert.equal(limiter.take('a'), 0);
    wall -= 3_600_000;
    assert.deepEqual(
      [1, 2, 3, 4].map(() => limiter.take('a')),
      [0, 0, 0, 0],
      'the rest of the burst is still there',
    );
  });

  it('a clock reading earlier than the last one counts as no time passed, never as negative time', () => {
    let now = 10_000;
    const limiter = new RateLimiter(1, 2, () => now);
    limiter.take('a');
    now = 0;
    assert.equal(limiter.take('a'), 0, 'one token of the burst left');
    assert.equal(limiter.take('a'), 1, 'then one second to wait, not an hour');
  });
});
