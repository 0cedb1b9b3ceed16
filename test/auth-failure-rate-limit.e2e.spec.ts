/**
 * Issue 10, item 10: rate limiting used to run only after authentication, so a flood of
 * requests with wrong keys (or none) was never limited. Now such requests are limited per
 * client address: 429 with Retry-After, while a valid key from the same address still works.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpResult } from '@ledger/testing';
import { useLedger } from './support/lifecycle';

/** Requests per second refilled to an address without a valid key, as set below. */
const RATE = 1;
/** Twenty times the rate. */
const BURST = 20 * RATE;
/**
 * Far more than the burst: at 1 request/s refill, none of these would be limited only if
 * the run took over (ATTEMPTS - BURST) seconds, which no machine this runs on is that slow.
 */
const ATTEMPTS = 60;

const assertLimited = (answer: HttpResult): void => {
  assert.equal(answer.body.code, 'too_many_requests');
  assert.match(answer.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
};

describe('requests without a valid API key', () => {
  const started = useLedger({ env: { LEDGER_AUTH_FAILURE_RATE_PER_SECOND: String(RATE) } });

  it('are limited per client address, wrong keys and missing keys alike, with Retry-After', async () => {
    const ledger = started();
    const wrongKey = ledger.as('lk_nobody.wrong-secret');
    const statuses: number[] = [];
    let limited: HttpResult | undefined;
    let limitedSentAt = 0;
    for (let i = 0; i < ATTEMPTS && !limited; i++) {
      const sentAt = performance.now();
      const answer = await wrongKey.get('/v1/nodes');
      statuses.push(answer.status);
      if (answer.status === 429) [limited, limitedSentAt] = [answer, sentAt];
    }
    assert.ok(limited, `no 429 in ${ATTEMPTS} requests with a wrong key: ${statuses.join(',')}`);
    assert.deepEqual(statuses.slice(0, BURST), Array(BURST).fill(401));
    assertLimited(limited);

    // The same address without any key is the same bucket: it is empty, so a keyless request
    // goes through only on what the bucket refilled since the 429 (a busy host may take over
    // a second between two requests), never on a fresh burst of its own.
    const keyless: number[] = [];
    let keylessLimited: HttpResult | undefined;
    while (!keylessLimited && keyless.length < BURST) {
      const answer = await ledger.as(null).get('/v1/nodes');
      keyless.push(answer.status);
      if (answer.status === 429) keylessLimited = answer;
    }
    const elapsedSeconds = (performance.now() - limitedSentAt) / 1000;
    assert.ok(keylessLimited, `no 429 in ${BURST} keyless requests after the wrong keys' 429: ${keyless.join(',')}`);
    assertLimited(keylessLimited);
    const passed = keyless.filter((status) => status === 401).length;
    // Under one token was left at the 429; at most RATE a second came back since.
    assert.ok(passed < 1 + elapsedSeconds * RATE, `${passed} keyless requests passed in ${elapsedSeconds.toFixed(2)} s: ${keyless.join(',')}`);
    // A valid key is charged to its own bucket, not the address's.
    assert.equal((await ledger.get('/v1/nodes')).status, 200);
  });
});
