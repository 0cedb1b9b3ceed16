/** Bad input gets a clear 4xx naming the problem: never a 500, never a write. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';

describe('bad input', () => {
  let ledger: LedgerProcess;
  let head: number;
  before(async () => {
    ledger = await LedgerProcess.start({ env: { LEDGER_MAX_BODY_BYTES: '65536' } });
    await enlist(ledger, 'good-node');
    head = (await ledger.get('/healthz')).body.store.head;
  });
  after(async () => {
    // None of the requests below may have written anything.
    const now = (await ledger.get('/healthz')).body.store.head;
    await ledger.stop();
    ledger.removeData();
    assert.equal(now, head, 'bad input wrote to the log');
  });

  const cases: { name: string; method?: string; path: string; body: unknown; status: number; mentions: RegExp }[] = [
    { name: 'malformed JSON', path: '/v1/nodes', body: '{"nodeId": "x", ', status: 400, mentions: /not valid JSON/ },
    { name: 'a JSON array', path: '/v1/nodes', body: '[1,2]', status: 400, mentions: /JSON object/ },
    { name: 'a JSON string', path: '/v1/nodes', body: '"node"', status: 400, mentions: /JSON|object/ },
    { name: 'a missing field', path: '/v1/nodes', body: { nodeId: 'n1' }, status: 400, mentions: /hostname/ },
    { name: 'an unknown field', path: '/v1/nodes', body: { nodeId: 'n1', hostname: 'h', colour: 'red' }, status: 400, mentions: /colour/ },
    { name: 'a mistyped field', path: '/v1/nodes', body: { nodeId: 'n1', hostname: 'h', cpuCount: 'eight' }, status: 400, mentions: /cpuCount/ },
    { name: 'an oversized string', path: '/v1/nodes', body: { nodeId: 'n1', hostname: 'h'.repeat(300) }, status: 400, mentions: /hostname/ },
    { name: 'an id with a slash', path: '/v1/nodes', body: { nodeId: '../etc', hostname: 'h' }, status: 400, mentions: /nodeId/ },
    {
      name: 'a nested unknown field',
      path: '/v1/allocations',
      body: { requestId: 'r1', consumer: { controller: 'c', model: 'm', evil: 1 }, nodeId: 'good-node' },
      status: 400,
      mentions: /consumer\.evil/,
    },
    {
      name: 'a nested missing field',
      path: '/v1/allocations',
      body: { requestId: 'r1', consumer: { controller: 'c' }, nodeId: 'good-node' },
      status: 400,
      mentions: /consumer\.model/,
    },
    {
      name: 'a consumer that is not an object',
      path: '/v1/allocations',
      body: { requestId: 'r1', consumer: 'alice', nodeId: 'good-node' },
      status: 400,
      mentions: /consumer/,
    },
    {
      name: 'nodeId and constraints together',
      path: '/v1/allocations',
      body: { requestId: 'r1', consumer: consumer('c', 'm'), nodeId: 'good-node', constraints: {} },
      status: 400,
      mentions: /either nodeId or constraints/,
    },
    {
      name: 'an unknown node',
      path: '/v1/allocations',
      body: { requestId: 'r2', consumer: consumer('c', 'm'), nodeId: 'no-such-node' },
      status: 404,
      mentions: /not enlisted/,
    },
    { name: 'an unknown token', path: '/v1/allocations/not-a-token/release', body: {}, status: 404, mentions: /no allocation/ },
    {
      name: 'a well-formed token never issued',
      path: `/v1/allocations/${Buffer.from('good-node').toString('base64url')}.9.AAAAAAAAAAAAAAAAAAAAAA/release`,
      body: {},
      status: 404,
      mentions: /no allocation/,
    },
    {
      name: 'an observation with a bad time',
      path: '/v1/observations/nodes',
      body: { nodeId: 'good-node', providerStatus: 'ready', observedAt: 'yesterday', source: 'maas' },
      status: 400,
      mentions: /observedAt/,
    },
    // ISO-8601 forms `new Date` cannot read (week, ordinal, basic dates) or reads in the
    // server's own zone (no zone): refused like any bad time, never a 500.
    {
      name: 'an observation with a week date',
      path: '/v1/observations/nodes',
      body: { nodeId: 'good-node', providerStatus: 'ready', observedAt: '2026-W10', source: 'maas' },
      status: 400,
      mentions: /observedAt must be an ISO-8601 time with a zone/,
    },
    {
      name: 'a power observation with a time without a zone',
      path: '/v1/observations/power',
      body: { nodeId: 'good-node', ok: false, error: 'BMC timeout', observedAt: '2026-12-31T10:00:00' },
      status: 400,
      mentions: /observedAt must be an ISO-8601 time with a zone/,
    },
    {
      name: 'a lease with an ordinal-date expiry',
      path: '/v1/leases',
      body: { ip: '10.0.0.5', mac: '52:54:00:00:00:05', owner: { kind: 'allocation', token: 'x' }, kind: 'dhcp', expiresAt: '2026-100' },
      status: 400,
      mentions: /expiresAt must be an ISO-8601 time with a zone/,
    },
    {
      name: 'a lease renewal with a basic-format date',
      path: '/v1/leases/10.0.0.5/renew',
      body: { expiresAt: '20261231' },
      status: 400,
      mentions: /expiresAt must be an ISO-8601 time with a zone/,
    },
    {
      name: 'a DHCP lease record with a week date',
      path: '/v1/observations/leases',
      body: { source: 'dhcpd', leases: [{ ip: '10.0.0.6', mac: '52:54:00:00:00:06', state: 'active', ends: '2026-W10-1' }] },
      status: 400,
      mentions: /leases\[0\]\.ends: must be an ISO-8601 time with a zone/,
    },
    {
      name: 'a reservation ttl out of range',
      path: '/v1/nodes/good-node/reservations',
      body: { agentName: 'a', ttlSeconds: -5 },
      status: 400,
      mentions: /ttlSeconds/,
    },
    {
      name: 'a body over the size limit',
      path: '/v1/nodes',
      body: { nodeId: 'n1', hostname: 'h', tags: ['x'.repeat(70_000)] },
      status: 413,
      mentions: /too large/,
    },
    {
      name: 'reconcile items with neither token nor nodeId',
      path: '/v1/reconcile',
      body: { consumer: consumer('c', 'm'), instances: [{ machine: '1' }] },
      status: 400,
      mentions: /instances\[0\]/,
    },
  ];

  for (const c of cases) {
    it(`${c.name} -> ${c.status} naming the problem`, async () => {
      const response = await ledger.request(c.method ?? 'POST', c.path, c.body);
      assert.equal(response.status, c.status, JSON.stringify(response.body));
      assert.match(String(response.body.message), c.mentions);
      assert.ok(response.body.code, 'a machine-readable code');
    });
  }

  it('an unknown node id in a GET is a 404, an invalid one a 400', async () => {
    assert.equal((await ledger.get('/v1/nodes/nobody')).status, 404);
    assert.equal((await ledger.get('/v1/nodes/no%20body')).status, 400);
    assert.equal((await ledger.get('/v1/nodes?status=sleeping')).status, 400);
    assert.equal((await ledger.get('/v1/allocations/whatever')).status, 404);
  });

  it("every response carries a correlation id, the caller's own when given", async () => {
    const response = await ledger.get('/v1/nodes/good-node', { 'x-correlation-id': 'incident-42' });
    assert.equal(response.headers.get('x-correlation-id'), 'incident-42');
    await ledger.waitForLog(/"correlationId":"incident-42"/);
    const refused = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('c', 'm'), nodeId: 'missing' });
    assert.equal(refused.body.correlationId, refused.headers.get('x-correlation-id'));
  });
});
