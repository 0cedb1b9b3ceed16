/**
 * Liveness and readiness. Two ledgers share one store; ledger A looks for the other's
 * appends only once an hour (LEDGER_TEST_SQLITE_POLL_MS), so when B writes, A's read models
 * and lease cascade are held behind the log: A answers /healthz/ready with 503 naming
 * them, stays live, and is ready again as soon as it follows the log (its own next
 * append wakes its subscriptions).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { LedgerProcess, type HttpResult } from '@ledger/testing';
import { enlist } from './support/fixtures';

const BOUND = 5;

type Check = { status: string; lag?: number };
/** /healthz/ready's answer when ready: each check's state. */
type Ready = { details: Record<string, Check> };
/** /healthz/ready's 503: an error naming why, the checks' states inside. */
type NotReady = { code: string; details: { details: Record<string, Check> } };

const waitForReadiness = async <Body extends Ready | NotReady>(ledger: LedgerProcess, status: number): Promise<HttpResult<Body>> => {
  let last: HttpResult<Body> | undefined;
  for (let i = 0; i < 400; i++) {
    last = await ledger.get<Body>('/healthz/ready');
    if (last.status === status) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`/healthz/ready stayed ${last?.status}: ${JSON.stringify(last?.body)}`);
};

describe('health: liveness and readiness', () => {
  let a: LedgerProcess;
  let b: LedgerProcess;
  before(async () => {
    const dataDir = LedgerProcess.tempDataDir();
    const slowToNotice = { LEDGER_TEST_SQLITE_POLL_MS: '3600000', LEDGER_READY_MAX_LAG_EVENTS: String(BOUND) };
    a = await LedgerProcess.start({ dataDir, env: { ...slowToNotice, LEDGER_READ_MODEL_DIR: join(dataDir, 'instance-a') } });
    b = await LedgerProcess.start({ dataDir, env: { LEDGER_READ_MODEL_DIR: join(dataDir, 'instance-b'), LEDGER_LEASE_CASCADE: 'off' } });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    a?.removeData();
  });

  it('is live and ready with the store answering and every follower of the log current', async () => {
    const live = await a.as(null).get('/healthz/live');
    assert.equal(live.status, 200);
    assert.equal(live.body.status, 'ok');
    const ready = await waitForReadiness<Ready>(a, 200);
    assert.deepEqual(Object.keys(ready.body.details).sort(), ['audit-index', 'lease-cascade', 'ledger-view', 'storage', 'store']);
    assert.ok(Object.values(ready.body.details as Record<string, { status: string }>).every((d) => d.status === 'up'));
    const summary = await a.as(null).get('/healthz');
    assert.equal(summary.status, 200, '/healthz keeps answering as before');
    assert.equal(summary.body.status, 'ok');
  });

  it('answers 503 while its read models are held behind the log by more than the bound, stays live, and is ready again once they follow', async () => {
    for (let i = 0; i <= BOUND; i++) assert.equal((await enlist(b, `elsewhere-${i}`)).status, 201);
    const held = await waitForReadiness<NotReady>(a, 503);
    assert.equal(held.body.code, 'not_ready');
    const checks = held.body.details.details as Record<string, { status: string; lag?: number }>;
    assert.equal(checks.store.status, 'up', 'the store answers');
    assert.equal(checks.storage.status, 'up', 'the disk takes writes');
    for (const follower of ['ledger-view', 'audit-index', 'lease-cascade']) {
      assert.equal(checks[follower].status, 'down', `${follower} is held behind`);
      assert.ok(checks[follower].lag! > BOUND);
    }
    assert.equal((await a.get('/healthz/live')).status, 200, 'behind is not dead: no restart wanted');

    // A's own append wakes its subscriptions: they read everything B wrote, and A is ready again.
    assert.equal((await enlist(a, 'here')).status, 201);
    const ready = await waitForReadiness<Ready>(a, 200);
    for (const follower of ['ledger-view', 'audit-index', 'lease-cascade']) assert.equal(ready.body.details[follower].lag, 0);
  });
});
