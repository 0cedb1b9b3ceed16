/**
 * Seed 2 over IPv6, against a real Kea 2.2 DHCPv6 server (kea-dhcp6): containers in network
 * namespaces lease addresses of a private ULA subnet through a real DHCPv6 client, the DHCP
 * agent follows Kea's kea-leases6.csv (through kea-lfc's rotations every few seconds) with the
 * same command as the DHCPv4 file, and:
 * - a registered container's address is `valid`, learned from Kea with the agent's key as the
 *   actor; an unregistered container's is `orphaned`;
 * - a delegated prefix and a binding Kea knows no MAC for are left out, counted in the log;
 * - rotations post nothing twice; the agent SIGKILLed while a container leases an address and
 *   restarted misses nothing and posts nothing twice (the store head proves it);
 * - the model force-released, the agent with --reclaim deletes the torn-down containers'
 *   addresses at Kea with lease6-del (after the same grace and same-MAC check as DHCPv4), and
 *   Kea's deletions reach the ledger; the binding the ledger never granted is left alone.
 * Where namespaces or the packages are missing, the suite is skipped with the reason.
 */
import { statSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess, addKey } from '@ledger/testing';
import { labUnavailable, DhcpLab, LAB_SUBNET6, type LabClient } from './support/dhcp-lab';
import { KeaServer } from './support/kea-server';
import { DhcpAgentProcess } from './support/dhcp-agent-process';
import { dhcpLedger, type AuditEvent } from './support/dhcp-ledger';
import { eventually } from './support/region';
import { KeaControl } from '../apps/dhcp-agent/src/kea-control';
import { KeaLeases, keaDeleteLease, keaLease } from '../apps/dhcp-agent/src/kea-leases';
import type { Schema } from './support/answers';

const unavailable = labUnavailable('kea6');
const SOURCE = 'kea:kea-leases6.csv';
/** Long enough that no address here ends by expiry: they end by the model's release and the reclaim. */
const LIFETIME = 600;

describe('the DHCP agent beside a real Kea 2.2 DHCPv6 server', { skip: unavailable ?? false }, () => {
  let ledger: LedgerProcess;
  let lab: DhcpLab;
  let kea: KeaServer;
  let control: KeaControl;
  let agent: DhcpAgentProcess;
  let agentKey: string;
  let token: string;
  const containers: (LabClient & { deviceId: string })[] = [];
  let stranger: LabClient;

  const head = () => dhcpLedger(ledger).head();
  const ipView = (address: string) => dhcpLedger(ledger).ipView(address);
  const addressOf = (client: LabClient): string => {
    const address = DhcpLab.address6Of(client);
    assert.ok(address, `${client.name} has no IPv6 address: ${client.output}`);
    return address;
  };
  const addLease = async (args: Record<string, unknown>) => {
    const answer = await control.command('lease6-add', { 'subnet-id': 1, ...args });
    assert.equal(answer.result, 0, JSON.stringify(answer));
  };
  const startAgent = () => {
    agent = new DhcpAgentProcess({
      leases: kea.leaseFile,
      ledger: ledger.url,
      key: agentKey,
      stateDir: DhcpAgentProcess.stateDirIn(lab.dir),
      extra: ['--reclaim', '--kea-socket', kea.socket, '--reclaim-grace', '2'],
    });
  };
  const register = async (name: string, mac: string) => {
    const client = await dhcpLedger(ledger).register(lab, token, name, mac);
    containers.push(client);
    return client;
  };
  const leased = (clients: LabClient[]) =>
    eventually(60_000, async () => clients.every((client) => DhcpLab.address6Of(client) !== null)).catch((error) => {
      throw new Error(`${(error as Error).message}\n${clients.map((client) => client.output).join('\n')}\nkea:\n${lab.read('kea.log').slice(-3000)}`);
    });
  const diagnose = async (error: unknown, ip: string) => {
    const details = `${ip}: ${JSON.stringify(await ipView(ip))}\nhealth: ${JSON.stringify((await agent.health())?.body)}`;
    throw new Error(`${(error as Error).message}\n${details}\nagent:\n${agent.output.slice(-3000)}\nkea:\n${lab.read('kea.log').slice(-2000)}`);
  };

  before(async () => {
    ledger = await LedgerProcess.start();
    agentKey = addKey(ledger.dataDir, '--name', 'kea6-agent', '--role', 'provider');
    token = await dhcpLedger(ledger).acquire('ashby', 'landscape', 'region-6');
    lab = new DhcpLab({ ipv6: true });
    kea = new KeaServer(lab, { family: 6, validLifetime: LIFETIME, lfcInterval: 3 });
    kea.start();
    control = new KeaControl(kea.socket, 2_000);
    await eventually(30_000, async () => (await control.command('list-commands').catch(() => null))?.result === 0).catch((error) => {
      throw new Error(`${(error as Error).message}: kea-dhcp6 did not open its control socket\n${kea.output}`);
    });
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

  it("Kea's control socket: lease6-get reads the MAC Kea holds an address for, lease6-del deletes it; kea-leases6.csv means IPv6", async () => {
    const leases = new KeaLeases(control, kea.leaseFile);
    assert.equal(leases.serves(`${LAB_SUBNET6}::1f0`), true);
    assert.equal(leases.serves('10.213.58.100'), false, "an IPv4 address is the DHCPv4 server's business");
    await addLease({ 'ip-address': `${LAB_SUBNET6}::1f0`, duid: '00:02:00:00:09:bf:0a:0b:0c:f0', iaid: 1, 'hw-address': '02:58:00:00:06:f0' });
    await addLease({ 'ip-address': `${LAB_SUBNET6}::1f1`, duid: '00:03:00:01:02:58:00:00:06:f1', iaid: 1 });
    assert.deepEqual(await keaLease(control, `${LAB_SUBNET6}::1f0`), { mac: '02:58:00:00:06:f0' }, 'the hw-address Kea recorded');
    assert.deepEqual(await keaLease(control, `${LAB_SUBNET6}::1f1`), { mac: '02:58:00:00:06:f1' }, 'else the MAC inside a link-layer DUID');
    for (const ip of [`${LAB_SUBNET6}::1f0`, `${LAB_SUBNET6}::1f1`]) {
      assert.equal(await keaDeleteLease(control, ip), true);
      assert.equal(await keaDeleteLease(control, ip), false, 'deleted already');
      assert.equal(await keaLease(control, ip), null);
    }
  });

  it('a registered container leases an IPv6 address through a real DHCPv6 client: valid, learned from Kea; an unregistered one is orphaned', async () => {
    const container = await register('juju-6-lxc-1', '02:58:00:00:06:01');
    stranger = lab.container('stranger', '02:58:00:00:06:99');
    for (const client of [container, stranger]) lab.startClient6(client);
    await leased([container, stranger]);
    const ip = addressOf(container);
    assert.ok(ip.startsWith(`${LAB_SUBNET6}::`), ip);
    // Kea learned the client's MAC: the reclaim's same-MAC check has something to compare.
    assert.deepEqual(await keaLease(control, ip), { mac: container.mac });

    await eventually(30_000, async () => (await ipView(ip)).status === 'valid' && (await ipView(addressOf(stranger))).status === 'orphaned').catch((error) =>
      diagnose(error, ip),
    );
    const view = await ipView(ip);
    assert.equal(view.current?.learnedFrom, SOURCE);
    assert.equal(view.current?.owner.deviceId, container.deviceId);
    const granted = await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?ip=${ip}&type=LeaseGranted`);
    assert.equal(granted.body.events[0].metadata.actor, 'kea6-agent');
  });

  it('a delegated prefix and a binding Kea knows no MAC for are left out, counted in the agent log, and nothing reaches the ledger for them', async () => {
    await addLease({ 'ip-address': `${LAB_SUBNET6}:0:100::`, 'prefix-len': 56, type: 'IA_PD', duid: '00:03:00:01:02:58:00:00:06:01', iaid: 2 });
    await addLease({ 'ip-address': `${LAB_SUBNET6}::1e1`, duid: '00:02:00:00:09:bf:0a:0b:0c:0d', iaid: 3 });
    await eventually(
      30_000,
      async () => /IA_PD[^\n]*lease file entries left out/.test(agent.output) && /without a MAC[^\n]*lease file entries left out/.test(agent.output),
    );
    assert.equal((await ledger.get(`/v1/leases/${LAB_SUBNET6}::1e1`)).status, 404);
    assert.equal((await ledger.get(`/v1/leases/${LAB_SUBNET6}:0:100::`)).status, 404);
    const health = await agent.health();
    assert.ok(((health?.body.ignoredEntries as number) ?? 0) >= 2, JSON.stringify(health?.body));
  });

  it('kea-lfc rotates kea-leases6.csv every few seconds and the agent follows it: nothing is posted twice', async () => {
    const before = await head();
    const rotations = () => agent.output.split('following the new lease file').length - 1;
    const seen = rotations();
    await eventually(60_000, async () => rotations() >= seen + 2);
    assert.equal(await head(), before, 'a rotation copies rows the agent already posted: the ledger appends nothing');
    assert.equal((await ipView(addressOf(containers[0]))).status, 'valid');
    assert.equal((await agent.health())?.status, 200);
  });

  it('the agent killed while a container leases an address, then restarted: nothing missed, nothing posted twice', async () => {
    const late = await register('juju-6-lxc-2', '02:58:00:00:06:02');
    const before = await head();
    await agent.stop('SIGKILL');
    lab.startClient6(late);
    await leased([late]);
    startAgent();
    await eventually(30_000, async () => (await ipView(addressOf(late))).status === 'valid').catch((error) => diagnose(error, addressOf(late)));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // Exactly the new lease, granted and observed; what the agent had posted before it was killed is not posted again.
    const appended = (await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?after=${before}&limit=20`)).body.events as {
      type: string;
      data: object;
    }[];
    assert.equal(await head(), before + 2, appended.map((event) => `${event.type} ${JSON.stringify(event.data)}`).join('\n'));
  });

  it('the owner ended: with --reclaim the agent deletes the addresses at Kea with lease6-del and records each reclaim in the ledger once', async () => {
    const ips = containers.map(addressOf);
    // The containers go with their machine, without a word; Kea holds their addresses until the leases end.
    for (const container of containers) await lab.vanish(container);
    for (const [n, ip] of ips.entries()) assert.deepEqual(await keaLease(control, ip), { mac: containers[n].mac });
    const before = await head();
    const deletions = () => lab.read('kea.log').split("Received command 'lease6-del'").length - 1;
    const deletedBefore = deletions();
    const released = await ledger.post('/v1/models/release', { controller: 'landscape', model: 'region-6', force: true });
    assert.equal(released.status, 200, JSON.stringify(released.body));

    for (const ip of ips) {
      await eventually(30_000, async () => (await keaLease(control, ip)) === null).catch((error) => diagnose(error, ip));
      // The agent logs the reclaim once Kea answered, so its line may arrive a moment after Kea let the address go.
      await eventually(10_000, async () => new RegExp(`"ip":"${ip}".*reclaimed at Kea: the lease owner ended`).test(agent.output));
      await eventually(30_000, async () => (await ipView(ip)).status === 'released').catch((error) => diagnose(error, ip));
    }
    // The agent has read (and posted) Kea's rows of the deletions: they append nothing, the reclaims were recorded first.
    const file = statSync(kea.leaseFile);
    await eventually(30_000, async () => {
      const position = (await agent.health())?.body.position as { ino: number; offset: number } | null;
      return !!position && (position.ino !== file.ino || position.offset >= file.size);
    });
    for (const [n, ip] of ips.entries()) {
      const events = (await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?ip=${ip}&after=${before}`)).body.events as AuditEvent[];
      // lease6-del fires no hook: the agent records the reclaim, its key the actor, with why the binding was an orphan.
      assert.deepEqual(
        events
          .filter((event) => event.type.startsWith('DhcpLease'))
          .map((event) => [event.type, event.data.mac, event.data.source, event.data.reason, event.data.ownerEnding, event.metadata.actor]),
        [['DhcpLeaseReclaimed', containers[n].mac, SOURCE, 'owner_ended', 'model_released', 'kea6-agent']],
        ip,
      );
    }
    await eventually(10_000, async () => deletions() >= deletedBefore + ips.length);
    assert.equal(deletions(), deletedBefore + ips.length, "Kea's own log: the agent sent lease6-del once per address");
    const health = await agent.health();
    assert.equal((health?.body as { reclaim?: { reclaimed: number } }).reclaim?.reclaimed, ips.length, JSON.stringify(health?.body));
    // The binding the ledger never granted is nobody's to reclaim.
    assert.deepEqual(await keaLease(control, addressOf(stranger)), { mac: stranger.mac });
  });
});
