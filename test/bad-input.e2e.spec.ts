/** Bad input gets a clear 4xx naming the problem: never a 500, never a write. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { useLedger } from './support/lifecycle';

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
    { name: 'a missing field', path: '/v1/nodes', body: { nodeId: 'n1' }, status: 400, mentions: /^hostname: hostname is required$/ },
    { name: 'an unknown field', path: '/v1/nodes', body: { nodeId: 'n1', hostname: 'h', colour: 'red' }, status: 400, mentions: /colour/ },
    { name: 'a mistyped field', path: '/v1/nodes', body: { nodeId: 'n1', hostname: 'h', cpuCount: 'eight' }, status: 400, mentions: /cpuCount/ },
    {
      name: 'a fractional cpu count',
      path: '/v1/nodes',
      body: { nodeId: 'n1', hostname: 'h', cpuCount: 1.5 },
      status: 400,
      mentions: /cpuCount must be an integer/,
    },
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
      mentions: /observedAt must be an RFC 3339 date-time/,
    },
    {
      name: 'a power observation with a time without a zone',
      path: '/v1/observations/power',
      body: { nodeId: 'good-node', ok: false, error: 'BMC timeout', observedAt: '2026-12-31T10:00:00' },
      status: 400,
      mentions: /observedAt must be an RFC 3339 date-time/,
    },
    {
      name: 'a lease with an ordinal-date expiry',
      path: '/v1/leases',
      body: { ip: '10.0.0.5', mac: '52:54:00:00:00:05', owner: { kind: 'allocation', token: 'x' }, kind: 'dhcp', expiresAt: '2026-100' },
      status: 400,
      mentions: /expiresAt must be an RFC 3339 date-time/,
    },
    {
      name: 'a lease renewal with a basic-format date',
      path: '/v1/leases/10.0.0.5/renew',
      body: { expiresAt: '20261231' },
      status: 400,
      mentions: /expiresAt must be an RFC 3339 date-time/,
    },
    {
      name: 'a DHCP lease record with a week date',
      path: '/v1/observations/leases',
      body: { source: 'dhcpd', leases: [{ ip: '10.0.0.6', mac: '52:54:00:00:00:06', state: 'active', ends: '2026-W10-1' }] },
      status: 400,
      mentions: /leases\[0\]\.ends: must be an RFC 3339 date-time/,
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
    // Names follow the rules of the systems they come from (libs/domain/src/names).
    {
      name: 'a node hostname with markup',
      path: '/v1/nodes',
      body: { nodeId: 'n1', hostname: '<img src=x onerror=alert(1)>' },
      status: 400,
      mentions: /^hostname: hostname must be a host name: /,
    },
    {
      name: 'a node hostname with a label ending in a hyphen',
      path: '/v1/nodes',
      body: { nodeId: 'n1', hostname: 'node-.maas' },
      status: 400,
      mentions: /hostname must be a host name/,
    },
    {
      name: 'a node hostname with a 64-character label',
      path: '/v1/nodes',
      body: { nodeId: 'n1', hostname: `${'a'.repeat(64)}.maas` },
      status: 400,
      mentions: /hostname must be a host name/,
    },
    {
      name: 'a node hostname with a trailing dot',
      path: '/v1/nodes',
      body: { nodeId: 'n1', hostname: 'node-1.maas.' },
      status: 400,
      mentions: /hostname must be a host name/,
    },
    {
      name: 'a tag with markup',
      path: '/v1/nodes',
      body: { nodeId: 'n1', hostname: 'n1', tags: ['gpu', '<script>alert(2)</script>'] },
      status: 400,
      mentions: /each of tags must be a tag name/,
    },
    { name: 'a tag with a space', path: '/v1/nodes', body: { nodeId: 'n1', hostname: 'n1', tags: ['fast disk'] }, status: 400, mentions: /tags/ },
    {
      name: 'a constraint tag with a slash',
      path: '/v1/allocations',
      body: { requestId: 'r1', consumer: consumer('c', 'm'), constraints: { tags: ['a/b'] } },
      status: 400,
      mentions: /constraints\.tags/,
    },
    {
      name: 'a controller name in capitals',
      path: '/v1/allocations',
      body: { requestId: 'r1', consumer: consumer('Juju-1', 'm'), nodeId: 'good-node' },
      status: 400,
      mentions: /consumer\.controller: controller must be a controller name: lowercase letters, digits and hyphens/,
    },
    {
      name: 'a model name with an underscore',
      path: '/v1/allocations',
      body: { requestId: 'r1', consumer: consumer('c', 'my_model'), nodeId: 'good-node' },
      status: 400,
      mentions: /consumer\.model: model must be a model name/,
    },
    {
      name: 'a model name starting with a hyphen',
      path: '/v1/models/release',
      body: { controller: 'c', model: '-prod' },
      status: 400,
      mentions: /model must be a model name/,
    },
    {
      name: 'an agent name with a space',
      path: '/v1/allocations',
      body: { requestId: 'r1', consumer: { controller: 'c', model: 'm', agentName: 'auto pilot' }, nodeId: 'good-node' },
      status: 400,
      mentions: /consumer\.agentName: agentName must be an agent name/,
    },
    {
      name: 'a reserving agent name with markup',
      path: '/v1/nodes/good-node/reservations',
      body: { agentName: '<b>x</b>' },
      status: 400,
      mentions: /agentName must be an agent name/,
    },
    // What the document allows is accepted, what it forbids is a 400.
    {
      name: 'an audit page of no events',
      method: 'GET',
      path: '/v1/audit/events?limit=0',
      body: undefined,
      status: 400,
      mentions: /limit must be an integer from 1 to 1000/,
    },
    {
      name: 'a state page over the limit',
      method: 'GET',
      path: '/v1/state?at=1&limit=100000',
      body: undefined,
      status: 400,
      mentions: /limit must be an integer from 1 to 10000/,
    },
    {
      name: 'an unknown query parameter of the projections',
      method: 'GET',
      path: '/v1/admin/projections?x=1',
      body: undefined,
      status: 400,
      mentions: /unknown query parameter x/,
    },
    {
      name: 'a time without seconds',
      path: '/v1/observations/power',
      body: { nodeId: 'good-node', ok: true, observedAt: '2026-12-31T10:00Z' },
      status: 400,
      mentions: /observedAt must be an RFC 3339 date-time/,
    },
    {
      name: 'a 30th of February',
      path: '/v1/observations/power',
      body: { nodeId: 'good-node', ok: true, observedAt: '2026-02-30T10:00:00Z' },
      status: 400,
      mentions: /observedAt/,
    },
    {
      name: 'a reservation key of the wrong type',
      method: 'DELETE',
      path: '/v1/nodes/good-node/reservations/rsv-1',
      body: { reservationKey: 42 },
      status: 400,
      mentions: /^reservationKey must be a string/,
    },
    {
      name: 'a cancellation without a key',
      method: 'DELETE',
      path: '/v1/nodes/good-node/reservations/rsv-1',
      body: {},
      status: 400,
      mentions: /reservationKey is required/,
    },
    {
      name: 'a lease owner with both token and deviceId',
      path: '/v1/leases',
      body: { ip: '10.0.0.5', mac: '52:54:00:00:00:05', owner: { token: 'x', deviceId: 'y' }, kind: 'dhcp' },
      status: 400,
      mentions: /owner: give exactly one of token or deviceId/,
    },
    {
      name: 'a DHCP lease record without its address',
      path: '/v1/observations/leases',
      body: { source: 'dhcpd', leases: [{ mac: '52:54:00:00:00:06', state: 'active' }] },
      status: 400,
      mentions: /leases\[0\]\.ip: is required/,
    },
    {
      name: 'a DHCP lease record with an unknown state',
      path: '/v1/observations/leases',
      body: { source: 'dhcpd', leases: [{ ip: '10.0.0.6', mac: '52:54:00:00:00:06', state: 'leased' }] },
      status: 400,
      mentions: /leases\[0\]\.state: must be one of active, free/,
    },
    {
      name: 'a DHCP client hostname longer than any host name',
      path: '/v1/observations/leases',
      body: { source: 'dhcpd', leases: [{ ip: '10.0.0.6', mac: '52:54:00:00:00:06', state: 'active', hostname: 'h'.repeat(254) }] },
      status: 400,
      mentions: /leases\[0\]\.hostname: must be text of at most 253 characters/,
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

/** The other side of the contract: what the document allows, the ledger takes. */
describe('input the document allows', () => {
  const started = useLedger();

  it('takes RFC 3339 times in lower case, and a DHCP record with null starts and hostname', async () => {
    const ledger = started();
    await enlist(ledger, 'lower-t');
    const observed = await ledger.post('/v1/observations/power', { nodeId: 'lower-t', ok: true, observedAt: '2025-01-01t12:00:00.5z' });
    assert.equal(observed.status, 200, JSON.stringify(observed.body));
    const records = await ledger.post('/v1/observations/leases', {
      source: 'dhcpd',
      leases: [{ ip: '10.0.9.1', mac: '52:54:00:00:09:01', state: 'active', starts: null, ends: '2099-01-01T00:00:00+02:00', hostname: null }],
    });
    assert.equal(records.status, 200, JSON.stringify(records.body));
  });

  it("records a DHCP client's hostname as sent, whatever it says: an observation, not a name the ledger was given", async () => {
    const ledger = started();
    const hostile = '<img src=x onerror=alert(1)> ñ';
    const records = await ledger.post('/v1/observations/leases', {
      source: 'dhcpd',
      leases: [{ ip: '10.0.9.2', mac: '52:54:00:00:09:02', state: 'active', hostname: hostile }],
    });
    assert.equal(records.status, 200, JSON.stringify(records.body));
    const address = await ledger.get(`/v1/leases/10.0.9.2?minPosition=${records.body.position}`);
    assert.equal(address.status, 200);
    assert.ok(
      JSON.stringify(address.body.dhcp).includes(JSON.stringify(hostile).slice(1, -1)),
      `the hostname is kept as the client sent it: ${JSON.stringify(address.body.dhcp)}`,
    );
  });

  it("refuses a device's host name that breaks RFC 1123, and a multicast MAC, naming the field", async () => {
    const ledger = started();
    await enlist(ledger, 'with-devices');
    const { token } = (await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('c', 'm'), nodeId: 'with-devices' })).body;
    const underscore = await ledger.post(`/v1/allocations/${token}/devices`, { hostname: 'juju_lxd_0', mac: '52:54:00:00:00:07' });
    assert.equal(underscore.status, 400);
    assert.match(underscore.body.message, /^hostname: hostname must be a host name/);
    const multicast = await ledger.post(`/v1/allocations/${token}/devices`, { hostname: 'juju-lxd-0', mac: '01:00:5e:00:00:01' });
    assert.equal(multicast.status, 400);
    assert.match(multicast.body.message, /mac must be a unicast MAC address/);
    assert.equal((await ledger.post(`/v1/allocations/${token}/devices`, { hostname: 'juju-lxd-0', mac: '52:54:00:00:00:07' })).status, 201);
  });

  it('takes a reservation TTL up to the document maximum, cut to the configured one', async () => {
    const ledger = started();
    await enlist(ledger, 'long-hold');
    const before = Date.now();
    const reserved = await ledger.post('/v1/nodes/long-hold/reservations', { agentName: 'autopilot', ttlSeconds: 31_536_000 });
    assert.equal(reserved.status, 201, JSON.stringify(reserved.body));
    const held = Date.parse(reserved.body.expiresAt) - before;
    assert.ok(held <= 7 * 86_400_000 + 60_000 && held >= 7 * 86_400_000 - 60_000, `held for the default maximum, 7 days: ${held} ms`);
  });
});
