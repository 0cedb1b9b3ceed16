/**
 * Leases and devices over HTTP: addresses held by a live owner are refused to anyone
 * else (409 ip_in_use naming the holder), bad addresses are 400s naming the field,
 * orphans are taken over in one step, and DHCP server records are judged and recorded
 * only when they change.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { eventually } from './support/region';
import type { Acquired, ApiError, Schema } from './support/answers';

describe('leases and devices', () => {
  let ledger: LedgerProcess;
  let nodes = 0;
  /** A fresh node, acquired for `model`: every test gets machines of its own. */
  const acquire = async (label: string, model = 'm') => {
    const nodeId = `${label}-${++nodes}`;
    assert.equal((await enlist(ledger, nodeId)).status, 201);
    const acquired = await ledger.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('c', model), nodeId });
    assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
    return acquired.body.token as string;
  };
  const head = async () => await ledger.storeHead();

  before(async () => {
    ledger = await LedgerProcess.start();
  });
  after(async () => {
    await ledger.stop();
    ledger.removeData();
  });

  it('an address a live owner holds is 409 ip_in_use naming the holder; the holder asking again is a no-op', async () => {
    const alice = await acquire('host-a');
    const bob = await acquire('host-b');
    const granted = await ledger.post('/v1/leases', { ip: '192.168.10.5', mac: '52:54:00:12:34:56', owner: { token: alice }, kind: 'static' });
    assert.equal(granted.status, 201, JSON.stringify(granted.body));
    assert.deepEqual(
      { ip: granted.body.ip, leaseId: granted.body.leaseId, status: granted.body.status },
      { ip: '192.168.10.5', leaseId: '1@192.168.10.5', status: 'valid' },
    );
    assert.equal(typeof granted.body.position, 'number');

    const refused = await ledger.post<ApiError & { details: { holder: unknown; leaseId: string } }>('/v1/leases', {
      ip: '192.168.10.5',
      mac: '52:54:00:65:43:21',
      owner: { token: bob },
      kind: 'static',
    });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'ip_in_use');
    assert.deepEqual(refused.body.details.holder, { token: alice });
    assert.equal(refused.body.details.leaseId, '1@192.168.10.5');

    const again = await ledger.post('/v1/leases', { ip: '192.168.10.5', mac: '52-54-00-12-34-56', owner: { token: alice }, kind: 'static' });
    assert.equal(again.status, 201);
    assert.equal(again.body.leaseId, '1@192.168.10.5');
    assert.equal(again.body.position, null, 'nothing new was written');
  });

  it('bad addresses and owners are 400s naming the field, and write nothing', async () => {
    const token = await acquire('host-c');
    const before = await head();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ip: '10.0.0.256', mac: '52:54:00:00:00:01', owner: { token }, kind: 'dhcp' }, /^ip/],
      [{ ip: 'fe80::1%eth0', mac: '52:54:00:00:00:01', owner: { token }, kind: 'dhcp' }, /zone index/],
      [{ ip: '10.0.0.1', mac: '52:54:00:00:00', owner: { token }, kind: 'dhcp' }, /^mac/],
      [{ ip: '10.0.0.1', mac: 'ff:ff:ff:ff:ff:ff', owner: { token }, kind: 'dhcp' }, /unicast/],
      [{ ip: '10.0.0.1', mac: '52:54:00:00:00:01', owner: { token }, kind: 'sticky' }, /^kind/],
      [{ ip: '10.0.0.1', mac: '52:54:00:00:00:01', owner: {}, kind: 'dhcp' }, /owner: give exactly one of token or deviceId/],
      [
        { ip: '10.0.0.1', mac: '52:54:00:00:00:01', owner: { token }, kind: 'dhcp', expiresAt: '2001-01-01T00:00:00Z' },
        /expiresAt 2001-01-01T00:00:00\.000Z is not in the future/,
      ],
      [{ ip: '10.0.0.1', mac: '52:54:00:00:00:01', owner: { token }, kind: 'dhcp', extra: 1 }, /extra/],
    ];
    for (const [body, message] of cases) {
      const response = await ledger.post<ApiError>('/v1/leases', body);
      assert.equal(response.status, 400, JSON.stringify(response.body));
      assert.match(response.body.message, message);
    }
    assert.equal((await ledger.get('/v1/leases/10.0.0.999')).status, 400);
    assert.equal((await ledger.post('/v1/allocations/' + token + '/devices', { hostname: 'lxc', mac: 'nope' })).status, 400);
    const unknown = await ledger.post('/v1/leases', {
      ip: '10.0.0.1',
      mac: '52:54:00:00:00:01',
      owner: { deviceId: `${Buffer.from('host-c-1').toString('base64url')}.1.d99` },
      kind: 'dhcp',
    });
    assert.equal(unknown.status, 404);
    assert.equal((await ledger.post('/v1/leases', { ip: '10.0.0.1', mac: '52:54:00:00:00:01', owner: { token: 'not-a-token' }, kind: 'dhcp' })).status, 404);
    assert.equal(await head(), before, 'no bad request wrote anything');
  });

  it('addresses are stored in one canonical spelling, IPv6 included', async () => {
    const token = await acquire('host-c', 'm6');
    const granted = await ledger.post('/v1/leases', {
      ip: '2001:0DB8:0000:0000:0000:0000:0000:0042',
      mac: '52:54:00:AB:CD:EF',
      owner: { token },
      kind: 'static',
    });
    assert.equal(granted.status, 201, JSON.stringify(granted.body));
    assert.equal(granted.body.ip, '2001:db8::42');
    const read = await ledger.get<Schema<'IpResponseDto'>>(`/v1/leases/2001:db8:0:0::42?minPosition=${granted.body.position}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.current?.mac, '52:54:00:ab:cd:ef');
    const clash = await ledger
      .post('/v1/leases', { ip: '2001:db8::0042', mac: '52:54:00:00:00:02', owner: { token: await acquire('host-b', 'other') }, kind: 'static' })
      .catch(() => null);
    assert.equal(clash?.status, 409, 'the same address spelled differently is the same address');
  });

  it('a device is fenced by its allocation; removing it releases its leases; its address can be taken over', async () => {
    const token = await acquire('host-a', 'containers');
    const device = await ledger.post(`/v1/allocations/${token}/devices`, { hostname: 'juju-0-lxc-1', mac: '00:16:3E:AA:BB:01' });
    assert.equal(device.status, 201, JSON.stringify(device.body));
    const { deviceId } = device.body;
    assert.equal(device.body.mac, '00:16:3e:aa:bb:01');
    const repeat = await ledger.post(`/v1/allocations/${token}/devices`, { hostname: 'juju-0-lxc-1', mac: '00:16:3e:aa:bb:01' });
    assert.equal(repeat.body.deviceId, deviceId, 'registering again answers the same device');

    const lease = await ledger.post('/v1/leases', {
      ip: '10.96.14.40',
      mac: '00:16:3e:aa:bb:01',
      owner: { deviceId },
      kind: 'dhcp',
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
    });
    assert.equal(lease.status, 201, JSON.stringify(lease.body));
    const renewed = await ledger.post('/v1/leases/10.96.14.40/renew', { expiresAt: new Date(Date.now() + 1_200_000).toISOString() });
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.equal(
      (await ledger.get<Schema<'LeaseListResponseDto'>>(`/v1/leases?deviceId=${deviceId}&status=valid&minPosition=${renewed.body.position}`)).body.leases
        .length,
      1,
    );

    const removed = await ledger.post(`/v1/devices/${deviceId}/remove`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal((await ledger.post(`/v1/devices/${deviceId}/remove`)).status, 200, 'removing twice is a no-op');
    await eventually(5_000, async () => {
      const [only] = (await ledger.get<Schema<'LeaseListResponseDto'>>(`/v1/leases?deviceId=${deviceId}`)).body.leases;
      assert.notEqual(only.status, 'valid');
      return only.status === 'released';
    });
    assert.equal((await ledger.post('/v1/leases/10.96.14.40/renew', { expiresAt: new Date(Date.now() + 1_200_000).toISOString() })).status, 409);
    const refused = await ledger.post('/v1/leases', { ip: '10.96.14.41', mac: '00:16:3e:aa:bb:01', owner: { deviceId }, kind: 'dhcp' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'stale_token');

    await ledger.post(`/v1/allocations/${token}/release`, {});
    const stale = await ledger.post(`/v1/allocations/${token}/devices`, { hostname: 'juju-0-lxc-2', mac: '00:16:3e:aa:bb:02' });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.code, 'stale_token');
  });

  it('granting over an orphan closes it in the same append', async () => {
    const old = await acquire('host-c', 'old');
    await ledger.post('/v1/leases', { ip: '10.96.11.99', mac: '52:54:00:00:99:01', owner: { token: old }, kind: 'static' });
    // The cascade may or may not have released it by the time the new owner asks: either way the grant succeeds.
    await ledger.post(`/v1/allocations/${old}/release`, { force: true });
    const next = await acquire('host-c', 'new');
    const granted = await ledger.post('/v1/leases', { ip: '10.96.11.99', mac: '52:54:00:00:99:02', owner: { token: next }, kind: 'static' });
    assert.equal(granted.status, 201, JSON.stringify(granted.body));
    assert.equal(granted.body.leaseId, '2@10.96.11.99');
    const history = (await ledger.get<Schema<'IpResponseDto'>>(`/v1/leases/10.96.11.99?minPosition=${granted.body.position}`)).body;
    assert.equal(history.current?.owner?.token, next);
    assert.deepEqual(
      history.history.map((l: { status: string }) => l.status),
      ['valid', 'released'],
    );
    assert.ok((['superseded_orphan', 'owner_ended'] as unknown[]).includes(history.history[1].ended?.reason));
    // Releasing the old lease by id later changes nothing: the new owner's lease is never touched.
    const late = await ledger.post('/v1/leases/10.96.11.99/release', { leaseId: '1@10.96.11.99' });
    assert.equal(late.status, 200);
    assert.equal(late.body.position, null);
    assert.equal((await ledger.get('/v1/leases/10.96.11.99')).body.status, 'valid');
    const released = await ledger.post('/v1/leases/10.96.11.99/release', {});
    assert.equal(released.body.status, 'released');
  });

  it('a revocation by the provider (released out of band) ends the devices and releases their leases too', async () => {
    const token = await acquire('host-r', 'revoked');
    const device = (await ledger.post(`/v1/allocations/${token}/devices`, { hostname: 'lxc-r', mac: '00:16:3e:aa:cc:01' })).body;
    await ledger.post('/v1/leases', { ip: '10.96.30.1', mac: '00:16:3e:aa:cc:01', owner: { deviceId: device.deviceId }, kind: 'dhcp' });
    const revoked = await ledger.post('/v1/observations/nodes', {
      nodeId: device.nodeId,
      providerStatus: 'Ready',
      observedAt: new Date().toISOString(),
      source: 'maas',
    });
    assert.equal(revoked.body.status, 'revoked');
    await eventually(5_000, async () => {
      const [lease] = (await ledger.get<Schema<'LeaseListResponseDto'>>(`/v1/leases?token=${token}`)).body.leases;
      assert.notEqual(lease.status, 'valid');
      return lease.status === 'released';
    });
    assert.equal((await ledger.get<Schema<'DeviceResponseDto'>>(`/v1/devices/${device.deviceId}`)).body.removed?.reason, 'allocation_ended');
  });

  it('DHCP records: judged per record, recorded only when changed, a bad record is a 400 naming it', async () => {
    const token = await acquire('host-b', 'dhcp');
    await ledger.post('/v1/leases', { ip: '10.96.20.1', mac: '52:54:00:20:00:01', owner: { token }, kind: 'dhcp' });
    const ends = new Date(Date.now() + 3_600_000).toISOString();
    const batch = {
      source: 'dhcpd@maas',
      leases: [
        { ip: '10.96.20.1', mac: '52:54:00:20:00:01', state: 'active', starts: new Date().toISOString(), ends, hostname: 'node-b' },
        { ip: '10.96.20.2', mac: '52:54:00:20:00:02', state: 'active', ends },
        { ip: '10.96.20.3', mac: '52:54:00:20:00:03', state: 'free', ends: null },
        { ip: '10.96.20.1', mac: '52:54:00:20:00:09', state: 'active', ends: null },
      ],
    };
    const first = await ledger.post<Schema<'LeaseObservationsResponseDto'>>('/v1/observations/leases', { ...batch, leases: batch.leases.slice(0, 3) });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.received, 3);
    assert.deepEqual(
      first.body.results.map((r: { verdict: string }) => r.verdict),
      ['valid', 'orphaned', 'unknown'],
    );
    assert.equal(first.body.results[0].token, token);
    assert.deepEqual(first.body.summary, { valid: 1, orphaned: 1, released: 0, unknown: 1 });
    assert.equal(typeof first.body.position, 'number');

    const before = await head();
    const again = await ledger.post('/v1/observations/leases', { ...batch, leases: batch.leases.slice(0, 3) });
    assert.deepEqual(again.body.summary, first.body.summary);
    assert.equal(again.body.position, null);
    assert.equal(await head(), before, 're-importing the same records appends nothing');

    const otherMac = await ledger.post<Schema<'LeaseObservationsResponseDto'>>('/v1/observations/leases', { ...batch, leases: [batch.leases[3]] });
    assert.equal(otherMac.body.results[0].verdict, 'orphaned', 'the server hands the address to another MAC');
    assert.match(otherMac.body.results[0].reason, /leases this address to 52:54:00:20:00:01/);
    assert.equal((await ledger.get('/v1/leases/10.96.20.2')).body.status, 'orphaned', 'held by the server, never leased by the ledger');

    const bad = await ledger.post<ApiError & { details: { field: string }[] }>('/v1/observations/leases', {
      source: 'dhcpd@maas',
      leases: [batch.leases[2], { ip: '10.96.20.4', mac: 'zz', state: 'active' }, { ip: '10.96.20.5', mac: '52:54:00:20:00:05', state: 'bound' }],
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /leases\[1\]\.mac/);
    assert.match(bad.body.message, /leases\[2\]\.state/);
    assert.deepEqual(
      bad.body.details.map((d: { field: string }) => d.field),
      ['leases[1].mac', 'leases[2].state'],
    );
    assert.equal((await ledger.post('/v1/observations/leases', { source: 'x', leases: new Array(5001).fill(batch.leases[2]) })).status, 400);
    assert.equal((await ledger.post('/v1/observations/leases', { leases: [] })).status, 400);
    assert.equal(await head(), before + 1, 'only the changed record was ever written');
  });
});
