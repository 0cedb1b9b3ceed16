/**
 * What a consumer key may read of other tenants: the nodes (to pick and reserve), and of
 * another controller's allocation only that the node is taken. Its own controller's
 * allocations it sees in full; a key scoped to some models sees those models' in full, as
 * it may act on them. Operators, auditors and providers see everything. Every read a
 * consumer may make is here: node list and node, reconcile (instances and addresses);
 * the others are forbidden to it (and the role matrix says so).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess, PATIENCE_MS, type LedgerClient, addKey, until } from '@ledger/testing';
import { consumer, newRequestId } from './support/fixtures';
import type { Schema, Acquired, OwnNode } from './support/answers';

describe('what a consumer reads of other controllers', () => {
  let ledger: LedgerProcess;
  let alice: LedgerClient; // consumer, controller ctl-a
  let aliceM1: LedgerClient; // consumer, controller ctl-a, model m1 only
  let bob: LedgerClient; // consumer, controller ctl-b
  let maas: LedgerClient; // provider
  let audit: LedgerClient; // auditor
  let mine: string; // alice's token on cr-a (ctl-a/m2)
  let bobs: string; // bob's token on cr-b
  let deploying: string; // bob's token on cr-c, past its deploy timeout
  let released: string; // bob's token on cr-d, released with cleanup pending
  /** What must never reach alice about bob. */
  let secrets: string[];

  before(async () => {
    ledger = await LedgerProcess.start({
      env: { LEDGER_DEPLOY_TIMEOUT_SECONDS: '1', LEDGER_TEST_HEALTH_CHECK_INTERVAL_MS: '100', LEDGER_POWER_FAILURES_FOR_FAULT: '1' },
    });
    const key = (...args: string[]) => ledger.as(addKey(ledger.dataDir, ...args));
    alice = key('--name', 'alice', '--role', 'consumer', '--controller', 'ctl-a');
    aliceM1 = key('--name', 'alice-m1', '--role', 'consumer', '--controller', 'ctl-a', '--models', 'm1');
    bob = key('--name', 'bob', '--role', 'consumer', '--controller', 'ctl-b');
    maas = key('--name', 'maas', '--role', 'provider');
    audit = key('--name', 'auditor-1', '--role', 'auditor');
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the ledger re-reads the keys file at most once a second
    for (const nodeId of ['cr-a', 'cr-b', 'cr-c', 'cr-d', 'cr-free']) assert.equal((await maas.post('/v1/nodes', { nodeId, hostname: nodeId })).status, 201);

    const acquire = async (client: LedgerClient, nodeId: string, who: ReturnType<typeof consumer>) => {
      const answer = await client.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: who, nodeId });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.token as string;
    };
    const bobConsumer = (machine: string) => ({ ...consumer('ctl-b', 'secret-model'), machine, owner: 'mallory' });
    mine = await acquire(alice, 'cr-a', consumer('ctl-a', 'm2'));
    bobs = await acquire(bob, 'cr-b', bobConsumer('71'));
    deploying = await acquire(bob, 'cr-c', bobConsumer('72'));
    assert.equal((await bob.post(`/v1/allocations/${deploying}/deploying`, {})).status, 200);
    released = await acquire(bob, 'cr-d', bobConsumer('73'));
    const power = await maas.post('/v1/observations/power', { nodeId: 'cr-d', ok: false, error: 'BMC timeout', observedAt: new Date().toISOString() });
    assert.equal(power.status, 200, JSON.stringify(power.body));
    assert.equal((await bob.post(`/v1/allocations/${released}/release`, {})).status, 200);
    // A lease owned by bob's allocation, for reconcile's addresses.
    assert.equal((await maas.post('/v1/leases', { ip: '10.9.0.2', mac: '52:54:00:09:00:02', owner: { token: bobs }, kind: 'dhcp' })).status, 201);
    await until(
      async () =>
        assert.ok(
          (await ledger.get<Schema<'NodeResponseDto'>>('/v1/nodes/cr-c')).body.faults.some((fault: { name: string }) => fault.name === 'deploy_timeout'),
        ),
      PATIENCE_MS,
      'the deploy timeout faulting cr-c',
    );
    secrets = [bobs, deploying, released, 'ctl-b', 'secret-model', 'mallory'];
  });
  after(async () => {
    await ledger.stop();
    ledger.removeData();
  });

  const leaksNothing = (body: unknown, what: string) => {
    const text = JSON.stringify(body);
    for (const secret of secrets) assert.ok(!text.includes(secret), `${what} names ${secret}: ${text}`);
  };

  it("shows another controller's live allocation as taken, and nothing more", async () => {
    const node = await alice.get('/v1/nodes/cr-b');
    assert.equal(node.status, 200);
    assert.deepEqual(node.body.allocation, { foreign: true, status: 'allocated' });
    assert.equal(node.body.status, 'allocated', 'the node itself says it is taken');
    leaksNothing(node.body, 'GET /v1/nodes/cr-b');

    const list = await alice.get<Schema<'NodeListResponseDto'>>('/v1/nodes');
    assert.equal(list.status, 200);
    const byId = new Map(list.body.nodes.map((n) => [n.nodeId, n]));
    assert.equal(byId.size, 5, 'every node is listed, to pick and reserve');
    assert.deepEqual(byId.get('cr-b')?.allocation, { foreign: true, status: 'allocated' });
    assert.deepEqual(byId.get('cr-c')?.allocation, { foreign: true, status: 'deploying' });
    assert.equal(byId.get('cr-free')?.allocation, null);
    leaksNothing(list.body, 'GET /v1/nodes');
  });

  it("leaves out a fault's or a pending cleanup's token that names another controller's allocation", async () => {
    const faulted = (await alice.get<Schema<'NodeResponseDto'>>('/v1/nodes/cr-c')).body;
    const timeout = faulted.faults.find((fault: { name: string }) => fault.name === 'deploy_timeout');
    assert.ok(timeout, 'the fault itself is shown');
    assert.equal('token' in timeout, false);
    const cleanup = (await alice.get<Schema<'NodeResponseDto'>>('/v1/nodes/cr-d')).body;
    assert.ok(cleanup.pendingCleanup, 'the pending cleanup itself is shown');
    assert.equal('token' in cleanup.pendingCleanup, false);
    leaksNothing([faulted, cleanup], 'faults and cleanup');

    const bobSees = (await bob.get<Schema<'NodeResponseDto'>>('/v1/nodes/cr-c')).body.faults.find((fault: { name: string }) => fault.name === 'deploy_timeout');
    assert.equal(bobSees?.token, deploying, 'its own controller sees the token');
    assert.equal((await bob.get<Schema<'NodeResponseDto'>>('/v1/nodes/cr-d')).body.pendingCleanup?.token, released);
  });

  it('shows its own allocations in full, and a model-scoped key only its models in full', async () => {
    const own = (await alice.get<OwnNode>('/v1/nodes/cr-a')).body.allocation;
    assert.ok(own, 'its own allocation is shown');
    assert.equal(own.token, mine);
    assert.deepEqual(own.consumer, consumer('ctl-a', 'm2'));
    assert.equal(own.epoch, 1);
    assert.ok(own.acquiredAt);
    // The m1-only key may neither act on nor read m2's allocation (GET /v1/allocations/:token is 403 to it): on a node, it is taken.
    assert.deepEqual((await aliceM1.get('/v1/nodes/cr-a')).body.allocation, { foreign: true, status: 'allocated' });
    assert.equal((await aliceM1.get(`/v1/allocations/${mine}`)).status, 403);
  });

  it('shows operators, auditors and providers every allocation in full', async () => {
    for (const [who, client] of [
      ['operator', ledger],
      ['auditor', audit],
      ['provider', maas],
    ] as const) {
      const allocation = (await client.get<OwnNode>('/v1/nodes/cr-b')).body.allocation;
      assert.ok(allocation, who);
      assert.equal(allocation.token, bobs, who);
      assert.equal(allocation.consumer.owner, 'mallory', who);
      const listed = (await client.get<Schema<'NodeListResponseDto'>>('/v1/nodes')).body.nodes.find((n) => n.nodeId === 'cr-c');
      assert.equal(listed?.faults.find((fault) => fault.name === 'deploy_timeout')?.token, deploying, who);
    }
  });

  it("does not name another controller's model in reconcile's verdicts", async () => {
    const asked = { consumer: consumer('ctl-a', 'm2'), instances: [{ machine: '5', token: bobs }], ips: ['10.9.0.2'] };
    const verdicts = await alice.post<Schema<'ReconcileResponseDto'>>('/v1/reconcile', asked);
    assert.equal(verdicts.status, 200, JSON.stringify(verdicts.body));
    assert.equal(verdicts.body.instances[0].verdict, 'foreign');
    assert.equal(verdicts.body.ips?.[0].verdict, 'foreign');
    // The token alice sent comes back as sent; nothing else of bob's does.
    secrets = secrets.filter((secret) => secret !== bobs);
    try {
      leaksNothing(verdicts.body, 'reconcile');
    } finally {
      secrets.push(bobs);
    }
    const operator = await ledger.post<Schema<'ReconcileResponseDto'>>('/v1/reconcile', asked);
    assert.match(operator.body.instances[0].reason, /ctl-b\/secret-model/, 'an operator is told whose it is');
    assert.match(operator.body.ips?.[0].reason ?? '', /ctl-b\/secret-model/);
  });

  it("forbids a consumer every other read that names other controllers' allocations", async () => {
    const reads = [
      `/v1/allocations/${bobs}`,
      '/v1/leases',
      '/v1/leases/10.9.0.2',
      '/v1/audit/events',
      '/v1/audit/nodes/cr-b/timeline',
      '/v1/audit/stream',
      '/v1/state',
      '/v1/state/nodes/cr-b',
      '/v1/state/addresses/10.9.0.2',
      '/v1/state/models/ctl-b/secret-model',
      '/v1/admin/projections',
      '/metrics',
    ];
    for (const path of reads) {
      const answer = await alice.get(path);
      assert.equal(answer.status, 403, `${path}: ${answer.status}`);
      leaksNothing(answer.body, path);
    }
  });
});
