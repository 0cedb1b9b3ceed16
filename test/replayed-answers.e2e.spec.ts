/**
 * Issue 10, item 7: a command retried with its original requestId after its token has
 * ended gets its first answer again, but marked as a replay and carrying the token's
 * state now, so a stale holder cannot read it as "my instance is fine".
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { useLedger } from './support/lifecycle';
import type { Acquired } from './support/answers';

describe('a replayed answer', () => {
  const started = useLedger();

  it('says replayed: true and whether the token is still live, and how it ended', async () => {
    const ledger = started();
    assert.equal((await enlist(ledger, 'node-replay')).status, 201);
    const acquire = { requestId: newRequestId('acq'), consumer: consumer('ctl', 'model-a', 'm-1'), nodeId: 'node-replay' };
    const first = await ledger.post<Acquired>('/v1/allocations', acquire);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.replayed, undefined);

    const whileLive = await ledger.post<Acquired>('/v1/allocations', acquire);
    assert.equal(whileLive.body.token, first.body.token);
    assert.deepEqual(
      { replayed: whileLive.body.replayed, live: whileLive.body.live, ending: whileLive.body.ending },
      { replayed: true, live: true, ending: null },
    );

    const release = { requestId: newRequestId('rel') };
    const released = await ledger.post(`/v1/allocations/${first.body.token}/release`, release);
    assert.equal(released.status, 200, JSON.stringify(released.body));
    assert.equal(released.body.replayed, undefined);

    const acquireAgain = await ledger.post<Acquired>('/v1/allocations', acquire);
    assert.equal(acquireAgain.body.token, first.body.token);
    assert.deepEqual(
      { replayed: acquireAgain.body.replayed, live: acquireAgain.body.live, ending: acquireAgain.body.ending },
      { replayed: true, live: false, ending: { kind: 'released' } },
    );
    assert.equal(acquireAgain.body.position, null);

    const releaseAgain = await ledger.post(`/v1/allocations/${first.body.token}/release`, release);
    assert.equal(releaseAgain.status, 200);
    assert.deepEqual(
      { status: releaseAgain.body.status, replayed: releaseAgain.body.replayed, live: releaseAgain.body.live },
      { status: 'released', replayed: true, live: false },
    );
  });
});
