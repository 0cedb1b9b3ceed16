/**
 * Who may touch devices and leases: a consumer registers and removes containers only
 * under its own controller's allocations; addresses are granted by providers; lease
 * listings (which name other owners' tokens) are for providers, operators and auditors.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess, type LedgerClient, addKey } from '@ledger/testing';
import { consumer, newRequestId } from './support/fixtures';
import type { Acquired, Schema } from './support/answers';

describe('access to devices and leases', () => {
  let ledger: LedgerProcess;
  let alice: LedgerClient; // consumer, controller ctl-a
  let bob: LedgerClient; // consumer, controller ctl-b
  let maas: LedgerClient; // provider
  let audit: LedgerClient; // auditor

  before(async () => {
    ledger = await LedgerProcess.start();
    const key = (...args: string[]) => ledger.as(addKey(ledger.dataDir, ...args));
    alice = key('--name', 'alice', '--role', 'consumer', '--controller', 'ctl-a');
    bob = key('--name', 'bob', '--role', 'consumer', '--controller', 'ctl-b');
    maas = key('--name', 'maas', '--role', 'provider');
    audit = key('--name', 'auditor', '--role', 'auditor');
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the ledger re-reads the keys file at most once a second
  });
  after(async () => {
    await ledger.stop();
    ledger.removeData();
  });

  it('applies the role matrix and the consumer scope to devices and leases', async () => {
    for (const nodeId of ['la-1', 'la-2']) assert.equal((await maas.post('/v1/nodes', { nodeId, hostname: nodeId })).status, 201);
    const a = (await alice.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('ctl-a', 'm'), nodeId: 'la-1' })).body.token;
    const b = (await bob.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('ctl-b', 'm'), nodeId: 'la-2' })).body.token;

    const mine = await alice.post(`/v1/allocations/${a}/devices`, { hostname: 'lxc-a', mac: '00:16:3e:0a:00:01' });
    assert.equal(mine.status, 201, JSON.stringify(mine.body));
    assert.equal(
      (await alice.post(`/v1/allocations/${b}/devices`, { hostname: 'lxc-x', mac: '00:16:3e:0a:00:02' })).status,
      403,
      'not under another controller',
    );
    const bobs = await bob.post(`/v1/allocations/${b}/devices`, { hostname: 'lxc-b', mac: '00:16:3e:0b:00:01' });
    assert.equal((await alice.post(`/v1/devices/${bobs.body.deviceId}/remove`)).status, 403, 'nor remove its containers');
    assert.equal((await alice.get(`/v1/devices/${bobs.body.deviceId}`)).status, 403);
    assert.equal((await bob.get(`/v1/devices/${bobs.body.deviceId}`)).status, 200);

    const lease = { ip: '10.7.0.1', mac: '00:16:3e:0a:00:01', owner: { deviceId: mine.body.deviceId }, kind: 'dhcp' };
    assert.equal((await alice.post('/v1/leases', lease)).status, 403, 'consumers do not grant addresses');
    assert.equal((await maas.post('/v1/leases', lease)).status, 201, 'providers do');
    assert.equal((await alice.get('/v1/leases')).status, 403, "listings name other owners' tokens");
    assert.equal((await audit.get('/v1/leases?status=valid')).status, 200);
    assert.equal((await audit.post('/v1/leases/10.7.0.1/release', {})).status, 403);
    const records = { source: 'dhcpd', leases: [{ ip: '10.7.0.1', mac: '00:16:3e:0a:00:01', state: 'active' }] };
    assert.equal((await alice.post('/v1/observations/leases', records)).status, 403);
    assert.equal((await maas.post<Schema<'LeaseObservationsResponseDto'>>('/v1/observations/leases', records)).body.results[0].verdict, 'valid');

    // A consumer learns about its own addresses through reconcile.
    const verdicts = await alice.post<Schema<'ReconcileResponseDto'>>('/v1/reconcile', { consumer: consumer('ctl-a', 'm'), instances: [], ips: ['10.7.0.1'] });
    assert.equal(verdicts.body.ips?.[0]?.verdict, 'valid');
    assert.equal((await alice.post(`/v1/devices/${mine.body.deviceId}/remove`)).status, 200, 'and removes its own containers');
  });
});
