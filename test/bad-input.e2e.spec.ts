/** Bad input gets a clear 4xx naming the problem: never a 500, never a write. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { useLedger } from './support/lifecycle';
import { MALFORMED_REQUESTS } from './support/bad-input-cases';
import { UNRULY_NAMES_AND_RECORDS } from './support/bad-input-names-and-records';
import type { ApiError, Schema } from './support/answers';

describe('bad input', () => {
  let ledger: LedgerProcess;
  let head: number;
  before(async () => {
    ledger = await LedgerProcess.start({ env: { LEDGER_MAX_BODY_BYTES: '65536' } });
    await enlist(ledger, 'good-node');
    head = await ledger.storeHead();
  });
  after(async () => {
    // None of the requests below may have written anything.
    const now = await ledger.storeHead();
    await ledger.stop();
    ledger.removeData();
    assert.equal(now, head, 'bad input wrote to the log');
  });

  const cases = [...MALFORMED_REQUESTS, ...UNRULY_NAMES_AND_RECORDS];

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
    const underscore = await ledger.post<ApiError>(`/v1/allocations/${token}/devices`, { hostname: 'juju_lxd_0', mac: '52:54:00:00:00:07' });
    assert.equal(underscore.status, 400);
    assert.match(underscore.body.message, /^hostname: hostname must be a host name/);
    const multicast = await ledger.post<ApiError>(`/v1/allocations/${token}/devices`, { hostname: 'juju-lxd-0', mac: '01:00:5e:00:00:01' });
    assert.equal(multicast.status, 400);
    assert.match(multicast.body.message, /mac must be a unicast MAC address/);
    assert.equal((await ledger.post(`/v1/allocations/${token}/devices`, { hostname: 'juju-lxd-0', mac: '52:54:00:00:00:07' })).status, 201);
  });

  it('takes a reservation TTL up to the document maximum, cut to the configured one', async () => {
    const ledger = started();
    await enlist(ledger, 'long-hold');
    const before = Date.now();
    const reserved = await ledger.post<Schema<'ReserveNodeResponseDto'>>('/v1/nodes/long-hold/reservations', {
      agentName: 'autopilot',
      ttlSeconds: 31_536_000,
    });
    assert.equal(reserved.status, 201, JSON.stringify(reserved.body));
    const held = Date.parse(reserved.body.expiresAt) - before;
    assert.ok(held <= 7 * 86_400_000 + 60_000 && held >= 7 * 86_400_000 - 60_000, `held for the default maximum, 7 days: ${held} ms`);
  });
});
