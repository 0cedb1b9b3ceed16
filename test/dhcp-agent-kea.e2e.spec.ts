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
 *   with --reclaim deletes at Kea (lease4-del on its control socket) the addresses of the
 *   torn-down containers and records each reclaim in the ledger (its key the actor, why
 *   the binding was an orphan), Kea's own row of each deletion appends nothing, a reclaim
 *   an agent killed between the delete and the record left unrecorded is recorded once
 *   after its restart, a new container receives a reclaimed address, and the binding the
 *   ledger never granted is left alone.
 * Where namespaces or the packages are missing, the suite is skipped with the reason.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerProcess, addKey } from '@ledger/testing';
import { labUnavailable, DhcpLab, type LabClient } from './support/dhcp-lab';
import { KeaServer } from './support/kea-server';
import { DhcpAgentProcess } from './support/dhcp-agent-process';
import { dhcpLedger, type AuditEvent } from './support/dhcp-ledger';
import { eventually } from './support/region';
import { forceReleaseModel } from './support/dhcp-story';
import { KeaControl } from '../apps/dhcp-agent/src/kea-control';
import { keaDeleteLease, keaLease } from '../apps/dhcp-agent/src/kea-leases';
import type { Schema } from './support/answers';

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
    const granted = await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?ip=${addressOf(registered[0])}&type=LeaseGranted`);
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
    const appended = (await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?after=${before}&limit=20`)).body.events as {
      type: string;
      data: object;
    }[];
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
    const appended = (await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?after=${before}&limit=20`)).body.events as {
      type: string;
      data: object;
    }[];
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
    const last = await register('juju-0-lxc-5', '02:58:00:00:00:05');
    lab.startClient(last);
    await leased([last]);
    await eventually(30_000, async () => (await ipView(addressOf(last))).status === 'valid');
    await forceReleaseModel(ledger, { controller: 'landscape', model: 'region-1' }, registered.map(addressOf));
    // Kea still holds the live containers' addresses: a leak the ledger shows as such.
    for (const client of [registered[0], registered[4]]) assert.equal((await ipView(addressOf(client))).status, 'orphaned');
  });

  it('with --reclaim, Kea no longer holds the torn-down containers addresses, each reclaim is recorded once, a new container receives one', async () => {
    const [torn, killedMidway] = [registered[0], registered[4]];
    const [ip, midwayIp] = [addressOf(torn), addressOf(killedMidway)];
    const control = new KeaControl(kea.socket);
    // The containers are gone with their machine; Kea still holds their addresses until the leases end.
    await lab.vanish(torn);
    await lab.vanish(killedMidway);
    // A real lease has hours left when its container is torn down; this one, a few seconds: given an hour, it cannot run out before the agent reclaims it.
    const held = await control.command('lease4-get', { 'ip-address': ip });
    const keep = ['ip-address', 'hw-address', 'subnet-id', 'hostname', 'fqdn-fwd', 'fqdn-rev'];
    const extended = await control.command('lease4-update', { ...Object.fromEntries(keep.map((name) => [name, held.arguments?.[name]])), 'valid-lft': 3600 });
    assert.equal(extended.result, 0, extended.text);
    const now = await control.command('lease4-get', { 'ip-address': ip });
    assert.equal(now.arguments?.['hw-address'], torn.mac);
    assert.ok((Number(now.arguments?.cltt) + Number(now.arguments?.['valid-lft'])) * 1000 > Date.now() + 600_000, JSON.stringify(now.arguments));
    const before = await head();
    await agent.stop();
    // An agent killed between its delete at Kea and its record in the ledger leaves this: the entry it wrote first, and Kea's row of the deletion.
    const stateDir = DhcpAgentProcess.stateDirIn(lab.dir);
    const pending = { ip: midwayIp, leaseId: (await ipView(midwayIp)).history[0].leaseId, mac: killedMidway.mac };
    writeFileSync(join(stateDir, 'reclaims.json'), JSON.stringify({ version: 1, source: SOURCE, pending: [pending] }));
    assert.equal(await keaDeleteLease(control, midwayIp), true);
    startAgent(['--reclaim', '--kea-socket', kea.socket, '--reclaim-grace', '2']);

    await eventually(30_000, async () => (await keaLease(control, ip)) === null).catch(async (error) => {
      const orphans = JSON.stringify((await ledger.get('/v1/leases?status=orphaned')).body.leases);
      throw new Error(
        `${(error as Error).message}\n${ip}: ${JSON.stringify(await ipView(ip))}\norphaned: ${orphans}\nhealth: ${JSON.stringify((await agent.health())?.body)}\nagent:\n${agent.output.slice(-3000)}`,
      );
    });
    // Logged once the ledger has the record, which comes after the delete.
    const logged = new RegExp(`"ip":"${ip.replace(/\./g, '\\.')}".*reclaimed at Kea: the lease owner ended`);
    await eventually(30_000, async () => logged.test(agent.output));
    // Both addresses are no longer leaks; the agent has read (and posted) Kea's rows of both deletions.
    await eventually(30_000, async () => (await ipView(ip)).status === 'released' && (await ipView(midwayIp)).status === 'released');
    const file = statSync(kea.leaseFile);
    await eventually(30_000, async () => {
      const position = (await agent.health())?.body.position as { ino: number; offset: number } | null;
      return !!position && (position.ino !== file.ino || position.offset >= file.size);
    });
    const health = await agent.health();
    assert.equal((health?.body as { reclaim?: { reclaimed: number } }).reclaim?.reclaimed, 2, JSON.stringify(health?.body));
    for (const [address, client] of [
      [ip, torn],
      [midwayIp, killedMidway],
    ] as const) {
      // The reclaim, recorded by the agent (Kea's lease4-del fires no hook): its key the actor, why the binding was an orphan; Kea's own row of the deletion appends nothing.
      const appended = (await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?ip=${address}&after=${before}`)).body.events as AuditEvent[];
      assert.deepEqual(
        appended.map((event) => [event.type, event.data.mac, event.data.source, event.data.reason, event.data.ownerEnding, event.metadata.actor]),
        [['DhcpLeaseReclaimed', client.mac, SOURCE, 'owner_ended', 'model_released', 'kea-agent']],
        address,
      );
    }
    // The binding the ledger never granted is nobody's to reclaim.
    assert.deepEqual(await keaLease(control, addressOf(stranger)), { mac: stranger.mac });

    const newcomer = lab.container('juju-1-lxc-1', '02:58:00:00:01:01');
    lab.startClient(newcomer, ip);
    await leased([newcomer]);
    assert.equal(addressOf(newcomer), ip, newcomer.output);
  });
});
