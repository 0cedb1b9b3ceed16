/**
 * Seed 2 against a real Kea 2.2: containers in network namespaces lease addresses from
 * kea-dhcp4 through busybox udhcpc, the DHCP agent follows Kea's memfile lease file
 * (through kea-lfc's rotations every few seconds) and the ledger learns each lease from it:
 * - registered containers' addresses are `valid`, learned from Kea, the agent's key the
 *   actor; an unregistered container's address is `orphaned`;
 * - renewals (a row per renewal in Kea's file) append nothing to the log;
 * - a DHCPRELEASE and an expiry reach the ledger;
 * - the agent SIGKILLed while leases change and restarted misses nothing and appends
 *   nothing twice (the store head proves it); Kea restarted: the same;
 * - the model force-released: every container address ended within seconds; the agent
 *   with --reclaim deletes at Kea (lease4-del on its control socket) the address of the
 *   torn-down container, Kea's deletion reaches the ledger, a new container receives that
 *   address, and the binding the ledger never granted is left alone.
 * Where namespaces or the packages are missing, the suite is skipped with the reason.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess, addKey } from '@ledger/testing';
import { labUnavailable, DhcpLab, type LabClient } from './support/dhcp-lab';
import { KeaServer } from './support/kea-server';
import { DhcpAgentProcess } from './support/dhcp-agent-process';
import { dhcpLedger } from './support/dhcp-ledger';
import { eventually } from './support/region';
import { KeaControl } from '../apps/dhcp-agent/src/kea-control';
import { keaLease } from '../apps/dhcp-agent/src/kea-leases';

const unavailable = labUnavailable('kea');
const SOURCE = 'kea:kea-leases4.csv';
/** busybox udhcpc takes any lease shorter than 16 s as 16 s: a shorter one would expire before its renewal. */
const LIFETIME = 20;

describe('the DHCP agent beside a real Kea 2.2', { skip: unavailable ?? false }, () => {
  let ledger: LedgerProcess;
  let lab: DhcpLab;
  let kea: KeaServer;
  let agent: DhcpAgentProcess;
  let agentKey: string;
  let token: string;
  const registered: (LabClient & { deviceId: string })[] = [];
  let stranger: LabClient;

  const head = () => dhcpLedger(ledger).head();
  const ipView = (address: string) => dhcpLedger(ledger).ipView(address);
  const addressOf = (client: LabClient): string => {
    const address = DhcpLab.addressOf(client);
    assert.ok(address, `${client.name} has no address: ${client.output}`);
    return address;
  };
  const leased = (clients: LabClient[]) => eventually(60_000, async () => clients.every((client) => DhcpLab.addressOf(client) !== null));
  const startAgent = (extra: string[] = []) => {
    agent = new DhcpAgentProcess({ leases: kea.leaseFile, ledger: ledger.url, key: agentKey, stateDir: DhcpAgentProcess.stateDirIn(lab.dir), extra });
  };
  const register = async (name: string, mac: string) => {
    const client = await dhcpLedger(ledger).register(lab, token, name, mac);
    registered.push(client);
    return client;
  };

  before(async () => {
    ledger = await LedgerProcess.start();
    agentKey = addKey(ledger.dataDir, '--name', 'kea-agent', '--role', 'provider');
    token = await dhcpLedger(ledger).acquire('darby', 'landscape', 'region-1');
    lab = new DhcpLab();
    kea = new KeaServer(lab, { validLifetime: LIFETIME, lfcInterval: 5 });
    kea.start();
    startAgent();
  });

  after(async () => {
    await agent?.stop();
    await kea?.stop();
    await lab?.destroy();
    await ledger?.stop();
    ledger?.removeData();
    assert.deepEqual(lab?.leftovers() ?? [], [], 'every namespace of the lab is deleted');
  });

  it('registered containers are valid, learned from Kea with the agent as actor; an unregistered one is orphaned', async () => {
    for (let n = 1; n <= 3; n++) await register(`juju-0-lxc-${n}`, `02:58:00:00:00:0${n}`);
    stranger = lab.container('stranger', '02:58:00:00:00:99');
    for (const client of [...registered, stranger]) lab.startClient(client);
    await leased([...registered, stranger]);

    await eventually(30_000, async () => {
      for (const client of registered) if ((await ipView(addressOf(client))).status !== 'valid') return false;
      return (await ipView(addressOf(stranger))).status === 'orphaned';
    });
    for (const client of registered) {
      const view = await ipView(addressOf(client));
      assert.equal(view.current?.learnedFrom, SOURCE);
      assert.equal(view.current?.owner.deviceId, client.deviceId);
    }
    const granted = await ledger.get(`/v1/audit/events?ip=${addressOf(registered[0])}&type=LeaseGranted`);
    assert.equal(granted.body.events[0].metadata.actor, 'kea-agent');
    const listed = (await ledger.get('/v1/leases?status=orphaned')).body.leases as { ip: string; leaseId: string | null }[];
    assert.deepEqual(
      listed.map((lease) => lease.ip),
      [addressOf(stranger)],
    );
    const health = await agent.health();
    assert.equal(health?.status, 200, JSON.stringify(health?.body));
  });

  it('renewals, a row each in the lease file, append nothing to the log', async () => {
    const before = await head();
    const postedBefore = agent.postedRecords();
    // Each client renews at half the lifetime: a lifetime and a bit covers two rounds of renewals, which Kea writes and the agent posts.
    await new Promise((resolve) => setTimeout(resolve, (LIFETIME + 4) * 1_000));
    assert.ok(agent.postedRecords() >= postedBefore + 4, `the agent posted ${agent.postedRecords() - postedBefore} renewal records`);
    const appended = (await ledger.get(`/v1/audit/events?after=${before}&limit=20`)).body.events as { type: string; data: object }[];
    assert.equal(await head(), before, `renewals appended ${appended.map((event) => `${event.type} ${JSON.stringify(event.data)}`).join('\n')}`);
    for (const client of registered) assert.equal((await ipView(addressOf(client))).status, 'valid');
    assert.ok(/following the new lease file/.test(agent.output), 'kea-lfc rotated the file meanwhile and the agent followed');
  });

  it('the agent killed while leases change misses nothing and appends nothing twice', async () => {
    const late = await register('juju-0-lxc-4', '02:58:00:00:00:04');
    const before = await head();
    await agent.stop('SIGKILL');
    lab.startClient(late);
    await leased([late]);
    const releasing = registered[2];
    const releasedIp = addressOf(releasing);
    await lab.release(releasing);
    startAgent();

    // Released while the agent was down: if kea-lfc cleaned the release row away meanwhile, all the agent can tell is that Kea no longer has the lease.
    const ended = (status: string) => status === 'released' || status === 'expired';
    await eventually(30_000, async () => (await ipView(addressOf(late))).status === 'valid' && ended((await ipView(releasedIp)).status)).catch(
      async (error) => {
        const statuses = `late ${(await ipView(addressOf(late))).status}, released ${(await ipView(releasedIp)).status}`;
        throw new Error(`${(error as Error).message}: ${statuses}\nagent:\n${agent.output.slice(-3000)}\nkea:\n${lab.read('kea.log').slice(-2000)}`);
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // Exactly: the new lease (granted + observed) and the release (released + observed).
    const appended = (await ledger.get(`/v1/audit/events?after=${before}&limit=20`)).body.events as { type: string; data: object }[];
    assert.equal(await head(), before + 4, appended.map((event) => `${event.type} ${JSON.stringify(event.data)}`).join('\n'));
  });

  it('Kea restarted rewrites its file: nothing is appended twice, every lease stays valid', async () => {
    const before = await head();
    await kea.stop();
    kea.start();
    await new Promise((resolve) => setTimeout(resolve, 3 * 1_000));
    await eventually(20_000, async () => (await agent.health())?.status === 200);
    for (const client of [registered[0], registered[1], registered[3]]) assert.equal((await ipView(addressOf(client))).status, 'valid');
    assert.equal(await head(), before);
  });

  it('a DHCPRELEASE and an expiry reach the ledger', async () => {
    const releasing = registered[3];
    await lab.release(releasing);
    await eventually(30_000, async () => (await ipView(addressOf(releasing))).status === 'released');
    assert.equal((await ipView(addressOf(releasing))).history[0].ended?.reason, 'released');
    const vanishing = registered[1];
    await lab.vanish(vanishing);
    await eventually(LIFETIME * 1_000 + 20_000, async () => (await ipView(addressOf(vanishing))).status === 'expired');
  });

  it('the model force-released: every container address ends within seconds', async () => {
    const released = await ledger.post('/v1/models/release', { controller: 'landscape', model: 'region-1', force: true });
    assert.equal(released.status, 200, JSON.stringify(released.body));
    await eventually(30_000, async () => {
      for (const client of registered) {
        const view = await ipView(addressOf(client));
        if (view.status === 'valid' || view.history[0].ended === null) return false;
      }
      return true;
    });
    // Kea still holds the live containers' addresses: a leak the ledger shows as such.
    assert.equal((await ipView(addressOf(registered[0]))).status, 'orphaned');
  });

  it('with --reclaim, Kea no longer holds the torn-down container address and a new container receives it', async () => {
    const torn = registered[0];
    const ip = addressOf(torn);
    const control = new KeaControl(kea.socket);
    // The container is gone with its machine; Kea still holds its address until the lease ends.
    await lab.vanish(torn);
    assert.deepEqual(await keaLease(control, ip), { mac: torn.mac });
    const before = await head();
    await agent.stop();
    startAgent(['--reclaim', '--kea-socket', kea.socket, '--reclaim-grace', '2']);

    await eventually(30_000, async () => (await keaLease(control, ip)) === null).catch(async (error) => {
      const orphans = JSON.stringify((await ledger.get('/v1/leases?status=orphaned')).body.leases);
      throw new Error(
        `${(error as Error).message}\n${ip}: ${JSON.stringify(await ipView(ip))}\norphaned: ${orphans}\nhealth: ${JSON.stringify((await agent.health())?.body)}\nagent:\n${agent.output.slice(-3000)}`,
      );
    });
    // The agent logs the reclaim once Kea answered, so its line may arrive a moment after Kea let the address go.
    await eventually(10_000, async () => new RegExp(`"ip":"${ip.replace(/\./g, '\\.')}".*reclaimed at Kea: the lease owner ended`).test(agent.output));
    const health = await agent.health();
    assert.equal((health?.body as { reclaim?: { reclaimed: number } }).reclaim?.reclaimed, 1, JSON.stringify(health?.body));
    // Kea writes the deletion to its lease file (valid lifetime 0, not an expiry): the agent posts it, the address is no longer a leak.
    await eventually(30_000, async () => (await ipView(ip)).status === 'released');
    const observed = (await ledger.get(`/v1/audit/events?ip=${ip}&type=DhcpLeaseObserved&after=${before}`)).body.events as {
      data: { state: string; mac: string };
      metadata: { actor: string };
    }[];
    assert.deepEqual(
      observed.map((event) => [event.data.state, event.data.mac, event.metadata.actor]),
      [['released', torn.mac, 'kea-agent']],
    );
    // The binding the ledger never granted is nobody's to reclaim.
    assert.deepEqual(await keaLease(control, addressOf(stranger)), { mac: stranger.mac });

    const newcomer = lab.container('juju-1-lxc-1', '02:58:00:00:01:01');
    lab.startClient(newcomer, ip);
    await leased([newcomer]);
    assert.equal(addressOf(newcomer), ip, newcomer.output);
  });
});
