/**
 * Seed 2 against a real ISC dhcpd 4.4: containers in network namespaces lease addresses
 * from dhcpd through busybox udhcpc, the DHCP agent follows dhcpd.leases (an append-only
 * journal dhcpd rewrites whole at every start) and the ledger learns each lease from it:
 * - registered containers' addresses are `valid`, learned from dhcpd, the agent's key the
 *   actor; an unregistered container's address is `orphaned`;
 * - the agent SIGKILLed while leases change and restarted misses nothing and appends
 *   nothing twice (the store head proves it);
 * - dhcpd restarted rewrites its file: the agent follows the new one and appends nothing;
 * - a DHCPRELEASE and an expiry reach the ledger;
 * - the model force-released: every container address ended within seconds; with
 *   --reclaim the agent reports (log line and /healthz) each address dhcpd still holds for
 *   a torn-down container, appending nothing; the operator's steps in docs/dhcp-agent.md
 *   free one at dhcpd, the ledger learns it, and a new container receives it.
 * Where namespaces or the packages are missing, the suite is skipped with the reason.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { LedgerProcess, addKey } from '@ledger/testing';
import { labUnavailable, DhcpLab, type LabClient } from './support/dhcp-lab';
import { IscDhcpdServer } from './support/isc-dhcpd-server';
import { DhcpAgentProcess } from './support/dhcp-agent-process';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { eventually } from './support/region';
import { forceReleaseModel } from './support/dhcp-story';
import type { Acquired, Schema } from './support/answers';

const unavailable = labUnavailable('isc');
const SOURCE = 'isc:dhcpd.leases';
const LEASE_TIME = 30;
type IpView = {
  status: string;
  current: { learnedFrom: string | null; owner: { deviceId?: string } } | null;
  history: { leaseId: string; ended: { reason: string | null; how: string } | null }[];
};
type AuditEvent = { type: string; data: object };
/**
 * Without failover, dhcpd 4.4 records a DHCPRELEASE as `binding state free` (only a
 * failover peer writes `released`), which is also what it writes when a lease runs out: so
 * the ledger can tell the address's lease ended, not whether by release or by expiry.
 */
const ended = (status: string) => status === 'released' || status === 'expired';

describe('the DHCP agent beside a real ISC dhcpd 4.4', { skip: unavailable ?? false }, () => {
  let ledger: LedgerProcess;
  let lab: DhcpLab;
  let dhcpd: IscDhcpdServer;
  let agent: DhcpAgentProcess;
  let agentKey: string;
  let token: string;
  const registered: (LabClient & { deviceId: string })[] = [];
  let stranger: LabClient;

  const head = async (): Promise<number> => await ledger.storeHead();
  const ipView = async (address: string): Promise<IpView> => (await ledger.get<Schema<'IpResponseDto'>>(`/v1/leases/${address}`)).body as IpView;
  const appendedAfter = async (position: number): Promise<AuditEvent[]> =>
    (await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?after=${position}&limit=50`)).body.events as AuditEvent[];
  const shown = (events: AuditEvent[]) => events.map((event) => `${event.type} ${JSON.stringify(event.data)}`).join('\n');
  const addressOf = (client: LabClient): string => {
    const address = DhcpLab.addressOf(client);
    assert.ok(address, `${client.name} has no address: ${client.output}`);
    return address;
  };
  const leased = (clients: LabClient[]) => eventually(60_000, async () => clients.every((client) => DhcpLab.addressOf(client) !== null));
  const startAgent = (extra: string[] = []) => {
    agent = new DhcpAgentProcess({ leases: dhcpd.leaseFile, ledger: ledger.url, key: agentKey, stateDir: DhcpAgentProcess.stateDirIn(lab.dir), extra });
  };
  type WouldReclaim = { ip: string; mac: string; leaseId: string; reason: string };
  const wouldReclaim = async (): Promise<WouldReclaim[]> =>
    ((await agent.health())?.body.reclaim as { wouldReclaim?: WouldReclaim[] } | undefined)?.wouldReclaim ?? [];
  const register = async (name: string, mac: string) => {
    const device = await ledger.post<Schema<'RegisterDeviceResponseDto'>>(`/v1/allocations/${token}/devices`, { hostname: name, mac });
    assert.equal(device.status, 201, JSON.stringify(device.body));
    const client = Object.assign(lab.container(name, mac), { deviceId: device.body.deviceId as string });
    registered.push(client);
    return client;
  };
  const explain = async (error: unknown): Promise<never> => {
    throw new Error(`${(error as Error).message}\nagent:\n${agent.output.slice(-3000)}\ndhcpd:\n${dhcpd.output.slice(-2000)}`);
  };

  before(async () => {
    ledger = await LedgerProcess.start();
    agentKey = addKey(ledger.dataDir, '--name', 'isc-agent', '--role', 'provider');
    assert.equal((await enlist(ledger, 'darby')).status, 201);
    const acquired = await ledger.post<Acquired>('/v1/allocations', {
      requestId: newRequestId('acquire'),
      consumer: consumer('landscape', 'region-1', '0'),
      nodeId: 'darby',
    });
    assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
    token = acquired.body.token;
    lab = new DhcpLab();
    dhcpd = new IscDhcpdServer(lab, { leaseTime: LEASE_TIME });
    dhcpd.start();
    startAgent();
  });

  after(async () => {
    await agent?.stop();
    await dhcpd?.stop();
    await lab?.destroy();
    await ledger?.stop();
    ledger?.removeData();
    assert.deepEqual(lab?.leftovers() ?? [], [], 'every namespace of the lab is deleted');
  });

  it('registered containers are valid, learned from dhcpd with the agent as actor; an unregistered one is orphaned', async () => {
    for (let n = 1; n <= 3; n++) await register(`juju-0-lxc-${n}`, `02:58:00:00:01:0${n}`);
    stranger = lab.container('stranger', '02:58:00:00:01:99');
    for (const client of [...registered, stranger]) lab.startClient(client);
    await leased([...registered, stranger]);

    await eventually(30_000, async () => {
      for (const client of registered) if ((await ipView(addressOf(client))).status !== 'valid') return false;
      return (await ipView(addressOf(stranger))).status === 'orphaned';
    }).catch(explain);
    for (const client of registered) {
      const view = await ipView(addressOf(client));
      assert.equal(view.current?.learnedFrom, SOURCE);
      assert.equal(view.current?.owner.deviceId, client.deviceId);
    }
    const granted = await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?ip=${addressOf(registered[0])}&type=LeaseGranted`);
    assert.equal(granted.body.events[0].metadata.actor, 'isc-agent');
    const listed = (await ledger.get('/v1/leases?status=orphaned')).body.leases as { ip: string }[];
    assert.deepEqual(
      listed.map((lease) => lease.ip),
      [addressOf(stranger)],
    );
  });

  it('the agent killed while leases change misses nothing and appends nothing twice', async () => {
    const late = await register('juju-0-lxc-4', '02:58:00:00:01:04');
    const before = await head();
    await agent.stop('SIGKILL');
    lab.startClient(late);
    await leased([late]);
    const releasing = registered[2];
    const releasedIp = addressOf(releasing);
    await lab.release(releasing);
    startAgent();

    await eventually(30_000, async () => (await ipView(addressOf(late))).status === 'valid' && ended((await ipView(releasedIp)).status)).catch(explain);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // Exactly: the new lease (granted + observed) and the release (released + observed).
    assert.equal(await head(), before + 4, shown(await appendedAfter(before)));
  });

  it('dhcpd restarted rewrites its file: the agent follows the new one, appends nothing, every lease stays valid', async () => {
    const before = await head();
    const inode = statSync(dhcpd.leaseFile).ino;
    await dhcpd.stop();
    dhcpd.start();
    await eventually(20_000, async () => statSync(dhcpd.leaseFile).ino !== inode && /following the new lease file/.test(agent.output)).catch(explain);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal((await agent.health())?.status, 200);
    for (const client of [registered[0], registered[1], registered[3]]) assert.equal((await ipView(addressOf(client))).status, 'valid');
    assert.equal(await head(), before, shown(await appendedAfter(before)));
  });

  it('a DHCPRELEASE reaches the ledger: the lease ends, once', async () => {
    const releasing = registered[3];
    const before = await head();
    await lab.release(releasing);
    await eventually(30_000, async () => ended((await ipView(addressOf(releasing))).status)).catch(explain);
    assert.ok((await ipView(addressOf(releasing))).history[0].ended, 'the lease has ended');
    const appended = await appendedAfter(before);
    assert.deepEqual(appended.map((event) => event.type).sort(), ['DhcpLeaseObserved', 'LeaseExpired'], shown(appended));
  });

  it('a lease that runs out reaches the ledger: dhcpd writes its end, the lease expires, once', async () => {
    const vanishing = registered[1];
    const ip = addressOf(vanishing);
    const before = await head();
    await lab.vanish(vanishing);
    await eventually(LEASE_TIME * 1_000 + 60_000, async () => (await ipView(ip)).status === 'expired').catch(explain);
    assert.equal((await ipView(ip)).history[0].ended?.how, 'expired');
    const appended = await appendedAfter(before);
    assert.deepEqual(appended.map((event) => event.type).sort(), ['DhcpLeaseObserved', 'LeaseExpired'], shown(appended));
  });

  it('the model force-released: every container address ends; with --reclaim the agent reports what dhcpd still holds', async () => {
    const last = await register('juju-0-lxc-5', '02:58:00:00:01:05');
    lab.startClient(last);
    await leased([last]);
    await eventually(30_000, async () => (await ipView(addressOf(last))).status === 'valid').catch(explain);
    await forceReleaseModel(ledger, { controller: 'landscape', model: 'region-1' }, registered.map(addressOf)).catch(explain);
    const torn = [registered[0], registered[4]];
    for (const client of torn) assert.equal((await ipView(addressOf(client))).status, 'orphaned', 'dhcpd still holds it: a leak');

    // Their clients still renew (as a container left running by a forced teardown would), so dhcpd holds the addresses while the report is read.
    await agent.stop();
    const before = await head();
    startAgent(['--reclaim', '--reclaim-grace', '2']);
    const expected = torn.map((client) => ({ ip: addressOf(client), mac: client.mac })).sort((a, b) => a.ip.localeCompare(b.ip));
    await eventually(30_000, async () => (await wouldReclaim()).length === 2).catch(explain);
    const reported = await wouldReclaim();
    assert.deepEqual(
      reported.map(({ ip, mac }) => ({ ip, mac })).sort((a, b) => a.ip.localeCompare(b.ip)),
      expected,
    );
    for (const entry of reported) {
      assert.equal(entry.leaseId, (await ipView(entry.ip)).history[0].leaseId);
      assert.match(entry.reason, /owner ended/);
      assert.match(agent.output, new RegExp(`"ip":"${entry.ip.replace(/\./g, '\\.')}"[^\n]*would reclaim at dhcpd`));
    }
    assert.equal(await head(), before, 'reporting appends nothing');
  });

  it("the operator's steps free a reported address at dhcpd: the ledger learns it, and a new container receives it", async () => {
    const freed = registered[0];
    const ip = addressOf(freed);
    await lab.vanish(freed);
    await dhcpd.stop();
    dhcpd.markFree(ip, freed.mac);
    dhcpd.start();
    await eventually(30_000, async () => (await ipView(ip)).status === 'released' && !(await wouldReclaim()).some((entry) => entry.ip === ip)).catch(explain);
    assert.deepEqual(
      (await wouldReclaim()).map((entry) => entry.ip),
      [addressOf(registered[4])],
    );
    const newcomer = lab.container('juju-1-lxc-1', '02:58:00:00:02:01');
    lab.startClient(newcomer, ip);
    await leased([newcomer]);
    assert.equal(addressOf(newcomer), ip, newcomer.output);

    // The other way, dhcpd running: OMAPI sets the lease's state to free, dhcpd writes that to its file.
    const other = registered[4];
    await lab.vanish(other);
    const omshell = dhcpd.freeThroughOmapi(addressOf(other));
    // dhcpd itself says the state changed (not the lease running out meanwhile).
    const changed = new RegExp(`lease ${addressOf(other).replace(/\./g, '\\.')} state changed from active to free`);
    await eventually(20_000, async () => changed.test(dhcpd.output)).catch((error: unknown) =>
      explain(new Error(`${(error as Error).message}\nomshell:\n${omshell}`)),
    );
    await eventually(30_000, async () => (await ipView(addressOf(other))).status === 'released' && (await wouldReclaim()).length === 0).catch(
      (error: unknown) => explain(new Error(`${(error as Error).message}\nomshell:\n${omshell}`)),
    );
  });
});
