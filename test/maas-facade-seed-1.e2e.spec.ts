/**
 * Seed 1 through the MAAS facade, driven by Juju's own MAAS client (Debian's gomaasapi):
 * Alice's controller allocates node X and its deployment fails; Charlie releases X in
 * MAAS's UI; Bob's controller allocates X and gets a different instance id. Alice's
 * controller then finds its instance gone, and its release counts as done in her client
 * while MAAS never receives a release for X. The ledger's timeline of X tells it so.
 * Juju's owner data (its model and machine ids on the machine) is recorded in the ledger
 * before MAAS is asked; Alice's controller, still holding the machine it read before
 * Charlie's release, cannot relabel X while Bob holds it. Bob asks for X's pool, and the
 * ledger picks X: MAAS is never asked for another machine.
 * Then Bob's containers (seed 2): devices under his token, ended with his model.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '@ledger/testing';
import { JujuMaasClient } from './support/juju-maas-client/juju-maas-client';
import { useFacadeWorld } from './support/maas-facade-world';
import type { Schema } from './support/answers';

const X = 'x7k2pq';
const ALICE_MODEL = 'c3f1e0d2-alice-mobile-app';
const BOB_MODEL = '9b8a7c6d-bob-show-me-the-money';

describe('seed 1 through the MAAS facade, with Juju’s own MAAS client', { skip: JujuMaasClient.unavailable() ?? false }, () => {
  const started = useFacadeWorld(
    [
      { systemId: X, hostname: 'elkhart', tags: ['ssd'], cpuCount: 8, memoryMb: 16384, pool: 'gold' },
      { systemId: 'r4m8tn', hostname: 'darby', cpuCount: 2, memoryMb: 4096 },
      { systemId: 'k9w3zv', hostname: 'monon', cpuCount: 2, memoryMb: 4096, pool: 'bronze' },
    ],
    { alice: 'fair-clouds-alice', bob: 'fair-clouds-bob' },
  );
  let aliceId = '';
  let bobId = '';
  /** Alice's controller, holding the machine it read while her allocation was live. */
  let aliceHolding: Awaited<ReturnType<JujuMaasClient['hold']>> | undefined;
  after(() => aliceHolding?.stop());

  it('connects as Juju does (version, then whoami) and a wrong key is refused at whoami', async (t) => {
    const world = started();
    t.diagnostic(`gomaasapi program built in ${world.juju.buildSeconds.toFixed(1)} s`);
    const connected = await world.as('alice', 'connect');
    assert.equal(connected.ok, true, JSON.stringify(connected));
    const wrong = await world.juju.run(
      world.facade.url,
      world.keys.alice.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      'connect',
    );
    assert.equal(wrong.ok, false);
    assert.equal(wrong.kind, 'permission', 'gomaasapi turns a 401 at whoami into a PermissionError');
  });

  it('Alice allocates X under a per-allocation id; her deployment fails; Charlie releases X in MAAS; the ledger revokes her token', async () => {
    const world = started();
    const allocated = await world.as('alice', 'allocate', { agent_name: ALICE_MODEL, tags: 'ssd', cpu_count: '4', mem: '8192', arch: 'amd64' });
    assert.equal(allocated.ok, true, JSON.stringify(allocated));
    aliceId = allocated.machines![0].systemId;
    assert.notEqual(aliceId, X, "the instance id is the allocation's, not MAAS's system_id");
    assert.equal(allocated.machines![0].hostname, 'elkhart');
    assert.equal(world.maas.machines.get(X)!.status, 'Allocated');

    const listed = await world.as('alice', 'list', { agent_name: ALICE_MODEL });
    assert.deepEqual(
      listed.machines?.map((m) => m.systemId),
      [aliceId],
    );
    const tagged = await world.as('alice', 'set-owner-data', { agent_name: ALICE_MODEL, id: aliceId, machine: '87' });
    const aliceLabels = { 'juju-model-uuid': ALICE_MODEL, 'juju-machine-id': '87' };
    assert.deepEqual(tagged.machines?.[0].ownerData, aliceLabels);
    assert.deepEqual(
      (await world.ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${aliceId}`)).body.ownerData,
      aliceLabels,
      'recorded in the ledger',
    );
    assert.deepEqual(world.maas.machines.get(X)!.ownerData, aliceLabels);
    aliceHolding = await world.juju.hold(world.facade.url, world.keys.alice, 'hold-then-set-owner-data', {
      agent_name: ALICE_MODEL,
      id: aliceId,
      machine: '88',
    });
    assert.deepEqual(aliceHolding.held.values, { held: aliceId }, JSON.stringify(aliceHolding.held));
    const deployed = await world.as('alice', 'deploy', { agent_name: ALICE_MODEL, id: aliceId });
    assert.equal(deployed.ok, true, JSON.stringify(deployed));
    assert.equal(deployed.machines![0].statusName, 'Deploying');
    assert.equal(
      (await world.ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${aliceId}`)).body.status,
      'deploying',
      'recorded in the ledger before MAAS was asked',
    );

    world.maas.failDeployment(X);
    await until(async () =>
      assert.equal((await world.ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${aliceId}`)).body.status, 'failed_deployment'),
    );
    world.maas.releaseOutOfBand(X);
    await until(async () => {
      const allocation = (await world.ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${aliceId}`)).body;
      assert.equal(allocation.live, false);
      assert.equal(allocation.ending?.kind, 'revoked');
    });
  });

  it('Bob allocates X by its pool and gets another instance id; Alice’s instance is gone, her owner data and release never reach MAAS', async () => {
    const world = started();
    assert.equal((await world.ledger.get<Schema<'NodeResponseDto'>>(`/v1/nodes/${X}`)).body.pool, 'gold', "enlisted with MAAS's pool");
    const allocated = await world.as('bob', 'allocate', { agent_name: BOB_MODEL, pool: 'gold' });
    assert.equal(allocated.ok, true, JSON.stringify(allocated));
    bobId = allocated.machines![0].systemId;
    assert.equal(allocated.machines![0].hostname, 'elkhart', 'Bob got node X, the one machine of the pool');
    assert.deepEqual(
      world.maas.received.filter((r) => r.op === 'allocate').map((r) => r.form.get('system_id')),
      [X, X],
      'the ledger picked by pool: MAAS was never asked for a machine of another pool',
    );
    assert.notEqual(bobId, aliceId, 'a new allocation of the same machine is a new instance id');
    assert.notEqual(bobId, X);

    const bobLabels = { 'juju-model-uuid': BOB_MODEL, 'juju-machine-id': '12' };
    assert.deepEqual((await world.as('bob', 'set-owner-data', { agent_name: BOB_MODEL, id: bobId, machine: '12' })).machines?.[0].ownerData, bobLabels);
    const labelled = world.maas.received.filter((r) => r.op === 'set_owner_data').length;
    const stale = await aliceHolding!.proceed();
    assert.equal(stale.ok, false, JSON.stringify(stale));
    assert.equal(stale.statusCode, 409, 'her stale id is refused, as for every stale command');
    assert.equal(world.maas.received.filter((r) => r.op === 'set_owner_data').length, labelled, 'MAAS never received her owner data');
    assert.deepEqual(world.maas.machines.get(X)!.ownerData, bobLabels, 'X keeps Bob’s labels');
    assert.deepEqual((await world.ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${bobId}`)).body.ownerData, bobLabels);

    const aliceList = await world.as('alice', 'list', { agent_name: ALICE_MODEL, id: aliceId });
    assert.equal(aliceList.ok, true, JSON.stringify(aliceList));
    assert.deepEqual(aliceList.machines ?? [], [], 'gone: left out of the list, which is how Juju learns an instance no longer exists');
    const aliceDeploy = await world.as('alice', 'deploy', { agent_name: ALICE_MODEL, id: aliceId });
    assert.equal(aliceDeploy.ok, false);

    const released = await world.as('alice', 'release', { id: aliceId });
    assert.equal(released.values?.juju, 'released', `Juju counts it released: ${JSON.stringify(released)}`);
    assert.equal(released.kind, 'cannot_complete', 'a 409: gomaasapi says CannotComplete, which Juju reads as already released');
    assert.deepEqual(world.maas.releasesOf(X), [], 'MAAS never received a release for X');
    assert.equal(world.maas.machines.get(X)!.status, 'Allocated', 'X is still Bob’s at MAAS');
    assert.deepEqual(
      (await world.as('bob', 'list', { agent_name: BOB_MODEL })).machines?.map((m) => m.systemId),
      [bobId],
    );
  });

  it('the ledger’s timeline of X tells seed 1 as it happened, the stale release refused', async () => {
    const world = started();
    // The audit index folds a moment after the answers: polled, not raced.
    await until(async () => {
      const timeline = await world.ledger.get<Schema<'TimelineResponseDto'>>(`/v1/audit/nodes/${X}/timeline`);
      assert.equal(timeline.status, 200, JSON.stringify(timeline.body));
      const entries = timeline.body.entries;
      assert.deepEqual(
        entries.filter((e) => e.type !== 'AcquireRouted').map((e) => [e.type, e.actor]),
        [
          ['NodeEnlisted', 'maas-facade'],
          ['NodeAcquired', 'alice'],
          ['AllocationOwnerDataSet', 'alice'],
          ['DeploymentStarted', 'alice'],
          ['DeploymentFailed', 'maas-facade'],
          ['AllocationRevoked', 'maas-facade'],
          ['NodeAcquired', 'bob'],
          ['AllocationOwnerDataSet', 'bob'],
          ['CommandRefused', 'alice'],
          ['CommandRefused', 'alice'],
        ],
      );
      const [relabel, release] = entries.slice(-2);
      for (const refusal of [relabel, release]) {
        assert.equal(refusal.token, aliceId);
        assert.match(refusal.summary, /stale_token/);
      }
      assert.match(relabel.summary, /SetOwnerData/);
      assert.match(release.summary, /ReleaseAllocation/);
      assert.match(entries.find((e) => e.type === 'AllocationOwnerDataSet' && e.actor === 'bob')!.summary, /juju-machine-id=12/);
    });
  });

  it('Bob deploys and creates containers as devices; the ledger holds them under his token; a deleted one is removed', async () => {
    const world = started();
    assert.equal((await world.as('bob', 'deploy', { agent_name: BOB_MODEL, id: bobId })).ok, true);
    world.maas.finishDeployment(X);
    await until(async () => assert.equal((await world.ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${bobId}`)).body.status, 'deployed'));

    const macs = ['00:16:3e:aa:00:01', '00:16:3e:aa:00:02', '00:16:3e:aa:00:03'];
    const created = [];
    for (const [n, mac] of macs.entries()) {
      // The first container as Juju makes one in a space: its NIC linked to a subnet (op=link_subnet), and a second NIC (op=create_physical).
      const extra: Record<string, string> = n === 0 ? { subnet: '10.20.0.0/24', second_mac: '00:16:3e:bb:00:01' } : {};
      const device = await world.as('bob', 'create-device', { agent_name: BOB_MODEL, id: bobId, hostname: `juju-1-lxd-${n}`, mac, ...extra });
      assert.equal(device.ok, true, JSON.stringify(device));
      assert.equal(device.devices![0].parent, bobId, "the device's parent is Bob's instance id, not MAAS's");
      created.push(device.devices![0]);
    }
    assert.deepEqual(created[0].interfaces, [`eth0=${macs[0]}@10.20.0.0/24`, 'eth1=00:16:3e:bb:00:01']);
    const listed = await world.as('bob', 'devices', { agent_name: BOB_MODEL, id: bobId });
    assert.deepEqual(listed.devices?.map((d) => d.systemId).sort(), created.map((d) => d.systemId).sort());
    assert.equal(world.maas.devices.get(created[0].systemId)?.parent, X, 'MAAS got its own machine id as the parent');

    const deleted = await world.as('bob', 'delete-device', { agent_name: BOB_MODEL, id: bobId, device: created[2].systemId });
    assert.equal(deleted.ok, true, JSON.stringify(deleted));
    assert.equal(world.maas.devices.has(created[2].systemId), false);

    const allocation = (await world.ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${bobId}`)).body;
    assert.deepEqual(
      allocation.devices.map((d: { mac: string; hostname: string; live: boolean }) => [d.hostname, d.mac, d.live]),
      [
        ['juju-1-lxd-0', macs[0], true],
        ['juju-1-lxd-1', macs[1], true],
        ['juju-1-lxd-2', macs[2], false],
      ],
    );
    // Alice's controller sees none of Bob's devices, even naming his machine.
    assert.equal((await world.as('alice', 'devices', { agent_name: BOB_MODEL, id: bobId })).ok, false);
  });

  it("Bob's model is force-released: his containers' devices end with it and their leases are released (seed 2)", async () => {
    const world = started();
    const devices: { deviceId: string; mac: string; live: boolean }[] = (await world.ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${bobId}`))
      .body.devices;
    const live = devices.filter((d) => d.live);
    for (const [n, device] of live.entries()) {
      const lease = await world.ledger.post('/v1/leases', {
        ip: `10.20.0.${50 + n}`,
        mac: device.mac,
        owner: { deviceId: device.deviceId },
        kind: 'dhcp',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      });
      assert.equal(lease.status, 201, JSON.stringify(lease.body));
    }
    const destroyed = await world.ledger.post<Schema<'ModelReleaseResponseDto'>>('/v1/models/release', {
      controller: 'fair-clouds-bob',
      model: BOB_MODEL,
      force: true,
    });
    assert.equal(destroyed.status, 200, JSON.stringify(destroyed.body));
    assert.deepEqual(
      destroyed.body.released.map((r: { token: string }) => r.token),
      [bobId],
    );
    await until(async () => {
      for (const n of live.keys()) assert.equal((await world.ledger.get(`/v1/leases/10.20.0.${50 + n}`)).body.status, 'released');
    });
    const ended = (await world.ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${bobId}`)).body;
    assert.deepEqual(
      ended.devices.map((d: { live: boolean }) => d.live),
      [false, false, false],
    );
    assert.deepEqual((await world.as('bob', 'list', { agent_name: BOB_MODEL })).machines ?? [], [], 'his instance is gone from his list');
  });
});
