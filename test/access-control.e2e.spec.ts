/**
 * Who may do what (issue 7): API keys are principals with roles; a consumer key acts
 * only for its own controller (and models), cannot read or touch another controller's
 * tokens, and every denied attempt is recorded. The actor on every event is the
 * authenticated principal, never something from the body.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync, statSync } from 'node:fs';
import { SqliteEventStore } from '@ledger/event-store';
import { LedgerProcess, type LedgerClient, addKey, runCli } from '@ledger/testing';
import { consumer, newRequestId } from './support/fixtures';
import type { Acquired, Schema } from './support/answers';

describe('access control', () => {
  let ledger: LedgerProcess;
  let alice: LedgerClient; // consumer, controller ctl-a
  let aliceM1: LedgerClient; // consumer, controller ctl-a, model m1 only
  let bob: LedgerClient; // consumer, controller ctl-b
  let maas: LedgerClient; // provider
  let audit: LedgerClient; // auditor
  const keys: string[] = [];

  before(async () => {
    ledger = await LedgerProcess.start();
    const key = (...args: string[]) => {
      const k = addKey(ledger.dataDir, ...args);
      keys.push(k);
      return ledger.as(k);
    };
    alice = key('--name', 'alice', '--role', 'consumer', '--controller', 'ctl-a');
    aliceM1 = key('--name', 'alice-m1', '--role', 'consumer', '--controller', 'ctl-a', '--models', 'm1');
    bob = key('--name', 'bob', '--role', 'consumer', '--controller', 'ctl-b');
    maas = key('--name', 'maas', '--role', 'provider');
    audit = key('--name', 'auditor-1', '--role', 'auditor');
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the ledger re-reads the keys file at most once a second
    for (const nodeId of ['ac-1', 'ac-2', 'ac-3', 'ac-4']) assert.equal((await maas.post('/v1/nodes', { nodeId, hostname: nodeId })).status, 201);
  });
  after(async () => {
    await ledger.stop();
    ledger.removeData();
  });

  it('writes the first operator key to operator.key, readable by its owner only', () => {
    const mode = statSync(join(ledger.dataDir, 'operator.key')).mode & 0o777;
    assert.equal(mode, 0o600);
    assert.doesNotMatch(readFileSync(join(ledger.dataDir, 'keys.json'), 'utf8'), /lk_[0-9a-f]{12}_/, 'the keys file holds hashes only');
  });

  it('refuses requests without a valid key (401), but health is public', async () => {
    assert.equal((await ledger.as(null).post('/v1/nodes', { nodeId: 'x', hostname: 'x' })).status, 401);
    const bad = await ledger.as('lk_000000000000_notarealkeynotarealkey').get('/v1/nodes');
    assert.equal(bad.status, 401);
    assert.equal(bad.body.code, 'unauthorized');
    assert.equal((await ledger.as(null).get('/healthz')).status, 200);
  });

  it('applies the role matrix', async () => {
    const cases: [string, LedgerClient, () => Promise<number>, number][] = [
      ['provider enlists', maas, async () => (await maas.post('/v1/nodes', { nodeId: 'ac-p', hostname: 'p' })).status, 201],
      ['consumer cannot enlist', alice, async () => (await alice.post('/v1/nodes', { nodeId: 'ac-c', hostname: 'c' })).status, 403],
      [
        'provider cannot acquire',
        maas,
        async () => (await maas.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('ctl-a', 'm1'), nodeId: 'ac-1' })).status,
        403,
      ],
      [
        'auditor cannot acquire',
        audit,
        async () => (await audit.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('ctl-a', 'm1'), nodeId: 'ac-1' })).status,
        403,
      ],
      ['auditor reads nodes', audit, async () => (await audit.get('/v1/nodes')).status, 200],
      [
        'consumer cannot observe',
        alice,
        async () =>
          (await alice.post('/v1/observations/nodes', { nodeId: 'ac-4', providerStatus: 'ready', observedAt: new Date().toISOString(), source: 'x' })).status,
        403,
      ],
      [
        'provider observes',
        maas,
        async () =>
          (await maas.post('/v1/observations/nodes', { nodeId: 'ac-4', providerStatus: 'ready', observedAt: new Date().toISOString(), source: 'maas' })).status,
        200,
      ],
      ['consumer cannot release a model', alice, async () => (await alice.post('/v1/models/release', { controller: 'ctl-a', model: 'm1' })).status, 403],
      [
        'consumer acts for another controller',
        alice,
        async () => (await alice.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('ctl-b', 'm1'), nodeId: 'ac-1' })).status,
        403,
      ],
      ['auditor reads the audit log', audit, async () => (await audit.get('/v1/audit/events?limit=5')).status, 200],
      ['auditor reads the state at a moment', audit, async () => (await audit.get('/v1/state?at=1')).status, 200],
      ['consumer cannot read the audit log', alice, async () => (await alice.get('/v1/audit/events')).status, 403],
      ['provider cannot time travel', maas, async () => (await maas.get('/v1/state?at=1')).status, 403],
      ['auditor cannot rebuild projections', audit, async () => (await audit.post('/v1/admin/projections/ledger-view/rebuild', {})).status, 403],
      [
        'model-scoped key, other model',
        aliceM1,
        async () => (await aliceM1.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('ctl-a', 'm2'), nodeId: 'ac-1' })).status,
        403,
      ],
    ];
    for (const [name, , run, expected] of cases) assert.equal(await run(), expected, name);
  });

  it('keeps consumers to their own tokens, records the attempts, and stamps the principal as actor', async () => {
    const a = await aliceM1.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('ctl-a', 'm1'), nodeId: 'ac-1' });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    const b = await bob.post<Acquired>('/v1/allocations', {
      requestId: newRequestId(),
      consumer: { ...consumer('ctl-b', 'mb'), owner: 'mallory' },
      nodeId: 'ac-2',
    });
    assert.equal(b.status, 201);

    assert.equal((await alice.get(`/v1/allocations/${a.body.token}`)).status, 200);
    assert.equal((await alice.get(`/v1/allocations/${b.body.token}`)).status, 403, "cannot read another controller's token");
    const release = await alice.post(`/v1/allocations/${b.body.token}/release`, {});
    assert.equal(release.status, 403);
    assert.equal(release.body.code, 'forbidden');
    assert.equal((await bob.get(`/v1/allocations/${b.body.token}`)).body.live, true, "Bob's allocation is untouched");
    assert.equal((await alice.post(`/v1/allocations/${a.body.token}/release`, { force: true })).status, 403, 'only operators force');
    assert.equal((await ledger.post(`/v1/allocations/${a.body.token}/release`, { force: true })).status, 200, 'operators may');

    const store = await SqliteEventStore.open({ file: join(ledger.dataDir, 'events.sqlite') });
    try {
      const denied = (await store.readStream('refusals-ac-2')).filter((e) => (e.data as { code?: string }).code === 'forbidden');
      assert.ok(denied.length >= 1, 'the denied release is recorded');
      assert.equal(denied[0].metadata.actor, 'alice');
      const acquiredByBob = (await store.readStream('node-ac-2')).find((e) => e.type === 'NodeAcquired')!;
      assert.equal(acquiredByBob.metadata.actor, 'bob', "the actor is the key, not the body's owner field");
      const released = (await store.readStream('node-ac-1')).find((e) => e.type === 'AllocationReleased')!;
      assert.equal(released.metadata.actor, 'operator');
    } finally {
      await store.close();
    }
  });

  it('a revoked key stops working without a restart', async () => {
    const temp = addKey(ledger.dataDir, '--name', 'temp', '--role', 'auditor');
    const keyId = /^lk_([0-9a-f]{12})_/.exec(temp)![1];
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.equal((await ledger.as(temp).get('/v1/nodes')).status, 200);
    const revoked = await runCli(['keys', 'revoke', keyId], { LEDGER_DATA_DIR: ledger.dataDir });
    assert.equal(revoked.status, 0, revoked.stderr);
    assert.match((await runCli(['keys', 'list'], { LEDGER_DATA_DIR: ledger.dataDir })).stdout, new RegExp(`${keyId}.*REVOKED`));
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.equal((await ledger.as(temp).get('/v1/nodes')).status, 401);
  });

  it('never logs a secret', async () => {
    const reservation = await alice.post<Schema<'ReserveNodeResponseDto'>>('/v1/nodes/ac-3/reservations', { agentName: 'autopilot' });
    assert.equal(reservation.status, 201);
    await ledger.post<Acquired>('/v1/allocations', {
      requestId: newRequestId(),
      consumer: consumer('ctl-a', 'm1'),
      nodeId: 'ac-3',
      reservationKey: reservation.body.reservationKey,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const secret of [...keys, ledger.apiKey!, reservation.body.reservationKey]) assert.ok(!ledger.logs.includes(secret), 'a secret reached the logs');
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After once a key exceeds its rate', async () => {
    const ledger = await LedgerProcess.start({ env: { LEDGER_RATE_LIMIT_PER_SECOND: '1' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await ledger.get('/v1/nodes')).status);
      // A burst of twice the rate passes; the rest waits for the bucket to refill.
      assert.deepEqual(statuses.slice(0, 2), [200, 200]);
      const limited = await ledger.get('/v1/nodes');
      assert.equal(limited.status, 429);
      assert.equal(limited.body.code, 'too_many_requests');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    } finally {
      await ledger.stop();
      ledger.removeData();
    }
  });
});
