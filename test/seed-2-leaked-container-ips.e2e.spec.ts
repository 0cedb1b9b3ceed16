/**
 * Seed 2: a cloud on 6 nodes uses 6 static host IPs and 37 container IPs; destroying the
 * environment with --force released the hosts' IPs and leaked the 37 container IPs, every
 * time. In the ledger, containers are devices of their host's allocation and every lease
 * has an owner: a forced whole-model release ends the allocations, their devices with
 * them in the same append, and the lease cascade releases all 43 leases. Until it has,
 * they show orphaned, never valid; afterwards the addresses can be granted again.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess } from '@ledger/testing';
import { buildRegion, eventually, regionIps, type Region } from './support/region';
import type { Acquired, Schema } from './support/answers';

const NODES = ['darby', 'correja', 'elkhart', 'knoxville', 'atlas', 'scapestack'];
const CONTROLLER = 'landscape';
const MODEL = 'openstack-region-1';

const leasesOf = async (ledger: LedgerProcess, model: string) => {
  const listed = await ledger.get(`/v1/leases?controller=${CONTROLLER}&model=${model}`);
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  return listed.body.leases as { ip: string; leaseId: string; status: string; ended: { reason: string; cause: string } | null; owner: { kind: string } }[];
};

describe('seed 2: no container IP outlives its machine', () => {
  let ledger: LedgerProcess;
  let region: Region;
  let bystander: Region;
  before(async () => {
    ledger = await LedgerProcess.start();
    region = await buildRegion(ledger, {
      controller: CONTROLLER,
      model: MODEL,
      nodeIds: NODES,
      containers: 37,
      hostNet: '10.96.11',
      containerNet: '10.96.14',
      macPrefix: '00:16:3e:00',
    });
    bystander = await buildRegion(ledger, {
      controller: CONTROLLER,
      model: 'staging',
      nodeIds: ['spare-1'],
      containers: 2,
      hostNet: '10.96.12',
      containerNet: '10.96.15',
      macPrefix: '00:16:3e:01',
    });
  });
  after(async () => {
    await ledger.stop();
    ledger.removeData();
  });

  it('a forced environment destroy releases all 43 leases within seconds, never showing one valid', async (t) => {
    const before = await leasesOf(ledger, MODEL);
    assert.equal(before.length, 43);
    assert.deepEqual([...new Set(before.map((l) => l.status))], ['valid']);
    assert.equal(before.filter((l) => l.owner.kind === 'device').length, 37);

    const destroyed = await ledger.post<Schema<'ModelReleaseResponseDto'>>('/v1/models/release', { controller: CONTROLLER, model: MODEL, force: true });
    assert.equal(destroyed.status, 200, JSON.stringify(destroyed.body));
    assert.equal(destroyed.body.released.length, 6);

    const seen = new Set<string>();
    const took = await eventually(5_000, async () => {
      const leases = await leasesOf(ledger, MODEL);
      assert.equal(leases.length, 43);
      for (const lease of leases) {
        assert.notEqual(lease.status, 'valid', `${lease.ip} is still valid after its allocation ended`);
        assert.ok(['orphaned', 'released'].includes(lease.status), `${lease.ip} is ${lease.status}`);
        seen.add(lease.status);
      }
      return leases.every((lease) => lease.status === 'released');
    });
    t.diagnostic(`43 leases released ${took} ms after the model release answered (statuses seen on the way: ${[...seen].join(', ')})`);

    for (const lease of await leasesOf(ledger, MODEL)) assert.equal(lease.ended?.reason, 'owner_ended');
    const container = await ledger.get<Schema<'DeviceResponseDto'>>(`/v1/devices/${region.containers[0].deviceId}`);
    assert.equal(container.body.removed?.reason, 'allocation_ended');
    assert.equal(container.body.live, false);

    // The other model of the same controller is untouched.
    assert.deepEqual([...new Set((await leasesOf(ledger, 'staging')).map((l) => l.status))], ['valid']);
    assert.equal((await ledger.get<Schema<'LeaseListResponseDto'>>('/v1/leases?status=valid')).body.leases.length, regionIps(bystander).length);

    // The container's own view of its address, as reconcile tells it: orphaned, stop using it.
    const reconciled = await ledger.post<Schema<'ReconcileResponseDto'>>('/v1/reconcile', {
      consumer: { controller: CONTROLLER, model: MODEL },
      instances: [],
      ips: regionIps(region).slice(0, 3),
    });
    assert.deepEqual(
      reconciled.body.ips?.map((v) => v.verdict),
      ['orphaned', 'orphaned', 'orphaned'],
    );
  });

  it('the 43 addresses can be granted again to a new allocation', async () => {
    const again = await buildRegion(ledger, {
      controller: CONTROLLER,
      model: 'openstack-region-2',
      nodeIds: NODES,
      containers: 37,
      hostNet: '10.96.11',
      containerNet: '10.96.14',
      macPrefix: '00:16:3e:02',
    });
    assert.deepEqual(regionIps(again).sort(), regionIps(region).sort());
    const leases = await leasesOf(ledger, 'openstack-region-2');
    assert.equal(leases.length, 43);
    assert.ok(leases.every((lease) => lease.status === 'valid' && lease.leaseId.startsWith('2@')));
    const history = await ledger.get<Schema<'IpResponseDto'>>(`/v1/leases/${region.containers[5].ip}`);
    assert.equal(history.body.status, 'valid');
    assert.deepEqual(
      history.body.history.map((l: { status: string }) => l.status),
      ['valid', 'released'],
    );
  });
});

describe('seed 2: before the cascade catches up, the leases of a destroyed model are orphaned, never valid', () => {
  it('with the cascade stopped they stay orphaned; a restart with it finishes the job', async () => {
    let ledger = await LedgerProcess.start({ env: { LEDGER_LEASE_CASCADE: 'off' } });
    const dataDir = ledger.dataDir;
    try {
      const region = await buildRegion(ledger, {
        controller: CONTROLLER,
        model: MODEL,
        nodeIds: NODES,
        containers: 37,
        hostNet: '10.96.11',
        containerNet: '10.96.14',
        macPrefix: '00:16:3e:00',
      });
      const destroyed = await ledger.post<Schema<'ModelReleaseResponseDto'>>('/v1/models/release', { controller: CONTROLLER, model: MODEL, force: true });
      assert.equal(destroyed.status, 200);

      const leases = (
        await ledger.get<Schema<'LeaseListResponseDto'>>(`/v1/leases?controller=${CONTROLLER}&model=${MODEL}&minPosition=${destroyed.body.position}`)
      ).body.leases;
      assert.equal(leases.length, 43);
      assert.ok(leases.every((lease: { status: string }) => lease.status === 'orphaned'));
      assert.equal((await ledger.get<Schema<'LeaseListResponseDto'>>(`/v1/leases?status=valid&controller=${CONTROLLER}`)).body.leases.length, 0);

      // The DHCP server still hands them out: its records are orphaned, never valid.
      const observed = await ledger.post<Schema<'LeaseObservationsResponseDto'>>('/v1/observations/leases', {
        source: 'dhcpd@maas',
        leases: region.containers.map((c) => ({ ip: c.ip, mac: c.mac, state: 'active', ends: new Date(Date.now() + 3_600_000).toISOString() })),
      });
      assert.equal(observed.status, 200, JSON.stringify(observed.body));
      assert.deepEqual(observed.body.summary, { valid: 0, orphaned: 37, released: 0, unknown: 0 });
      assert.match(observed.body.results[0].reason, /owner has ended/);

      // A new owner may take an orphaned address at once: the grant closes the orphan first.
      await ledger.post('/v1/nodes', { nodeId: 'fresh', hostname: 'fresh.maas' });
      const fresh = await ledger.post<Acquired>('/v1/allocations', { requestId: 'fresh-1', consumer: { controller: 'other', model: 'm' }, nodeId: 'fresh' });
      const takeover = await ledger.post('/v1/leases', {
        ip: region.nodes[0].hostIp,
        mac: '00:16:3e:aa:00:01',
        owner: { token: fresh.body.token },
        kind: 'static',
      });
      assert.equal(takeover.status, 201, JSON.stringify(takeover.body));
      assert.equal(takeover.body.superseded, `1@${region.nodes[0].hostIp}`);

      await ledger.stop();
      ledger = await LedgerProcess.start({ dataDir });
      await eventually(5_000, async () => {
        const now = (await ledger.get<Schema<'LeaseListResponseDto'>>(`/v1/leases?controller=${CONTROLLER}&model=${MODEL}`)).body.leases as {
          status: string;
          ended: { reason: string } | null;
        }[];
        assert.ok(now.every((lease) => lease.status !== 'valid'));
        // Released by the cascade, except the one the new owner took over; still orphaned: the DHCP server holds them.
        return now.every((lease) => lease.ended !== null);
      });
      const ended = (await ledger.get(`/v1/leases?controller=${CONTROLLER}&model=${MODEL}`)).body.leases as {
        ip: string;
        status: string;
        ended: { reason: string };
      }[];
      assert.equal(ended.filter((l) => l.ended.reason === 'owner_ended').length, 42);
      assert.equal(ended.filter((l) => l.ended.reason === 'superseded_orphan').length, 1);
      // The 37 container addresses stay orphaned while the DHCP server says it holds them...
      assert.equal(ended.filter((l) => l.status === 'orphaned').length, 37);
      // ...until it reports them free.
      const freed = await ledger.post<Schema<'LeaseObservationsResponseDto'>>('/v1/observations/leases', {
        source: 'dhcpd@maas',
        leases: region.containers.map((c) => ({ ip: c.ip, mac: c.mac, state: 'free' })),
      });
      assert.deepEqual(freed.body.summary, { valid: 0, orphaned: 0, released: 37, unknown: 0 });
      const settled = (
        await ledger.get<Schema<'LeaseListResponseDto'>>(`/v1/leases?controller=${CONTROLLER}&model=${MODEL}&minPosition=${freed.body.position}`)
      ).body.leases as {
        status: string;
      }[];
      assert.ok(settled.every((l) => l.status === 'released'));
      assert.equal(
        (await ledger.get<Schema<'IpResponseDto'>>(`/v1/leases/${region.nodes[0].hostIp}`)).body.current?.owner?.token,
        fresh.body.token,
        'the new owner keeps the address',
      );
    } finally {
      await ledger.stop();
      ledger.removeData();
    }
  });
});
