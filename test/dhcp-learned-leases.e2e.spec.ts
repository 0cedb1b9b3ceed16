/**
 * Seed 2, learned from the DHCP server: the four containers that leased through a real
 * server all read `orphaned` while only explicit grants made a lease valid. Now a binding
 * the server hands to the MAC of a registered device under a live allocation becomes that
 * device's lease, granted by the server (the reporting key is the actor); an unregistered
 * MAC stays orphaned; a following source's renewals append nothing; the server's release
 * ends the lease; a forced model release ends learned leases like any other.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess, addKey, type LedgerClient } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { eventually } from './support/region';
import type { Acquired, Schema } from './support/answers';

const SOURCE = 'kea:kea-leases4.csv';
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
type Lease = { ip: string; status: string; learnedFrom: string | null; expiresAt: string | null; owner: { deviceId?: string } | null };

describe('leases learned from a DHCP server', () => {
  let ledger: LedgerProcess;
  let agent: LedgerClient;
  const containers: { deviceId: string; mac: string; ip: string }[] = [];
  const head = async (): Promise<number> => await ledger.storeHead();
  const report = (leases: object[]) =>
    agent.post<Schema<'LeaseObservationsResponseDto'>>('/v1/observations/leases', { source: SOURCE, following: true, leases });

  before(async () => {
    ledger = await LedgerProcess.start();
    agent = ledger.as(addKey(ledger.dataDir, '--name', 'dhcp-agent-1', '--role', 'provider'));
    assert.equal((await enlist(ledger, 'darby')).status, 201);
    const acquired = await ledger.post<Acquired>('/v1/allocations', {
      requestId: newRequestId('acquire'),
      consumer: consumer('landscape', 'region-1', '0'),
      nodeId: 'darby',
    });
    assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
    for (let c = 0; c < 4; c++) {
      const mac = `00:16:3e:00:00:0${c}`;
      const device = await ledger.post<Schema<'RegisterDeviceResponseDto'>>(`/v1/allocations/${acquired.body.token}/devices`, { hostname: `lxc-${c}`, mac });
      assert.equal(device.status, 201, JSON.stringify(device.body));
      containers.push({ deviceId: device.body.deviceId, mac, ip: `10.77.0.${20 + c}` });
    }
  });
  after(async () => {
    await ledger.stop();
    ledger.removeData();
  });

  it('makes the bindings of registered containers their valid leases, granted by the agent, and leaves a stranger orphaned', async () => {
    const stranger = { ip: '10.77.0.99', mac: '00:16:3e:00:00:99', state: 'active', ends: inAnHour(), hostname: 'stranger' };
    const answer = await report([...containers.map((c) => ({ ip: c.ip, mac: c.mac, state: 'active', ends: inAnHour(), hostname: 'c' })), stranger]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.summary, { valid: 4, orphaned: 1, released: 0, unknown: 0 });
    assert.equal(answer.body.results[4].reason, 'the DHCP server holds a binding the ledger never granted');

    const listed = await ledger.get(`/v1/leases?minPosition=${answer.body.position}`);
    const byIp = new Map((listed.body.leases as Lease[]).map((lease) => [lease.ip, lease]));
    for (const c of containers) {
      const lease = byIp.get(c.ip)!;
      assert.equal(lease.status, 'valid');
      assert.equal(lease.learnedFrom, SOURCE);
      assert.equal(lease.expiresAt, null);
      assert.equal(lease.owner?.deviceId, c.deviceId);
    }
    assert.equal(byIp.get(stranger.ip)?.status, 'orphaned');

    const granted = await ledger.get<Schema<'AuditEventsResponseDto'>>(
      `/v1/audit/events?ip=${containers[0].ip}&type=LeaseGranted&minPosition=${answer.body.position}`,
    );
    assert.equal(granted.body.events.length, 1);
    assert.equal(granted.body.events[0].metadata.actor, 'dhcp-agent-1');
  });

  it('renewals append nothing; a hostname change is recorded; a release ends the lease', async () => {
    const before = await head();
    for (let round = 1; round <= 3; round++) {
      const renewed = await report(
        containers.map((c) => ({ ip: c.ip, mac: c.mac, state: 'active', ends: new Date(Date.now() + round * 3_600_000).toISOString(), hostname: 'c' })),
      );
      assert.deepEqual(renewed.body.summary, { valid: 4, orphaned: 0, released: 0, unknown: 0 });
      assert.equal(renewed.body.position, null, 'a renewal appended an event');
    }
    assert.equal(await head(), before);

    const renamed = await report([{ ip: containers[1].ip, mac: containers[1].mac, state: 'active', ends: inAnHour(), hostname: 'c-renamed' }]);
    assert.equal(await head(), before + 1, JSON.stringify(renamed.body));

    const released = await report([{ ip: containers[2].ip, mac: containers[2].mac, state: 'released', ends: null }]);
    assert.deepEqual(released.body.summary, { valid: 0, orphaned: 0, released: 1, unknown: 0 });
    const ip = await ledger.get<Schema<'IpResponseDto'>>(`/v1/leases/${containers[2].ip}?minPosition=${released.body.position}`);
    assert.equal(ip.body.status, 'released');
    assert.equal(ip.body.history[0]?.ended?.reason, 'released');
  });

  it('a forced model release ends every learned lease; the server still holding them shows them orphaned', async () => {
    const destroyed = await ledger.post('/v1/models/release', { controller: 'landscape', model: 'region-1', force: true });
    assert.equal(destroyed.status, 200, JSON.stringify(destroyed.body));
    await eventually(10_000, async () => {
      const leases = (await ledger.get('/v1/leases?controller=landscape&model=region-1')).body.leases as (Lease & { ended: object | null })[];
      assert.ok(leases.every((lease) => lease.status !== 'valid'));
      return leases.every((lease) => lease.ended !== null);
    });
    const held = [containers[0], containers[1], containers[3]];
    for (const c of held)
      assert.equal((await ledger.get<Schema<'IpResponseDto'>>(`/v1/leases/${c.ip}`)).body.status, 'orphaned', `${c.ip}: Kea still holds it`);
  });
});
