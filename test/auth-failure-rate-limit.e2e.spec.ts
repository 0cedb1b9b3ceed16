/**
 * Issue 10, item 10: rate limiting used to run only after authentication, so a flood of
 * requests with wrong keys (or none) was never limited. Now such requests are limited per
 * client address: 429 with Retry-After, while a valid key from the same address still works.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpResult } from '@ledger/testing';
import { useLedger } from './support/lifecycle';

/** Twenty times the rate of 1 a second set below. */
const BURST = 20;
/**
 * Far more than the burst: at 1 request/s refill, none of these would be limited only if
 * the run took over (ATTEMPTS - BURST) seconds, which no machine this runs on is that slow.
 */
const ATTEMPTS = 60;

describe('requests without a valid API key', () => {
  const started = useLedger({ env: { LEDGER_AUTH_FAILURE_RATE_PER_SECOND: '1' } });

  it('are limited per client address, wrong keys and missing keys alike, with Retry-After', async () => {
    const ledger = started();
    const wrongKey = ledger.as('lk_nobody.wrong-secret');
    const statuses: number[] = [];
    let limited: HttpResult | undefined;
    for (let i = 0; i < ATTEMPTS && !limited; i++) {
      const answer = await wrongKey.get('/v1/nodes');
      statuses.push(answer.status);
      if (answer.status === 429) limited = answer;
    }
    assert.ok(limited, `no 429 in ${ATTEMPTS} requests with a wrong key: ${statuses.join(',')}`);
    assert.deepEqual(statuses.slice(0, BURST), Array(BURST).fill(401));
    assert.equal(limited.body.code, 'too_many_requests');
    assert.match(limited.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);

    // The same address without any key is the same bucket.
    assert.equal((await ledger.as(null).get('/v1/nodes')).status, 429);
    // A valid key is charged to its own bucket, not the address's.
    assert.equal((await ledger.get('/v1/nodes')).status, 200);
  });
});
