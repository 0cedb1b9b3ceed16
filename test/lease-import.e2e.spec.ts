/**
 * Seed 2 from the DHCP server's side: a model is torn down, but the DHCP server still
 * holds its containers' leases. Importing the server's lease file names every one of
 * them orphaned, and so is every active lease the ledger has no owner for; only the
 * leases of a live allocation come back valid. Importing again changes nothing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImportReport } from '../apps/ledger-cli/src/lease-import/import-report';
import { generateIscLeaseFile, generateKeaLeaseFiles } from '@ledger/lease-files/testing';
import type { LeaseSpec } from '@ledger/lease-files/testing';
import { runCli, type LedgerProcess } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { useLedger } from './support/lifecycle';
import type { Acquired } from './support/answers';

interface HeldLease {
  ip: string;
  mac: string;
}

const acquire = async (ledger: LedgerProcess, nodeId: string, machine: string): Promise<string> => {
  assert.equal((await enlist(ledger, nodeId)).status, 201);
  const acquired = await ledger.post<Acquired>('/v1/allocations', {
    requestId: newRequestId(nodeId),
    consumer: consumer('autopilot', 'openstack', machine),
    nodeId,
  });
  assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
  return acquired.body.token;
};

/** A container on the allocation with a DHCP lease, as Juju registers one. */
const container = async (ledger: LedgerProcess, token: string, hostname: string, lease: HeldLease): Promise<HeldLease> => {
  const device = await ledger.post(`/v1/allocations/${token}/devices`, { hostname, mac: lease.mac });
  assert.ok(device.status < 300, JSON.stringify(device.body));
  const granted = await ledger.post('/v1/leases', { ip: lease.ip, mac: lease.mac, owner: { deviceId: device.body.deviceId }, kind: 'dhcp' });
  assert.ok(granted.status < 300, JSON.stringify(granted.body));
  return lease;
};

const hostLease = async (ledger: LedgerProcess, token: string, lease: HeldLease): Promise<HeldLease> => {
  const granted = await ledger.post('/v1/leases', { ip: lease.ip, mac: lease.mac, owner: { token }, kind: 'static' });
  assert.ok(granted.status < 300, JSON.stringify(granted.body));
  return lease;
};

const active = (lease: HeldLease, hostname: string): LeaseSpec => ({
  ...lease,
  state: 'active',
  starts: Math.floor(Date.now() / 1000) - 600,
  ends: Math.floor(Date.now() / 1000) + 3000,
  hostname,
});

describe('lease import: a DHCP server still holding a torn-down model’s leases', () => {
  const started = useLedger();
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'lease-import-e2e-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names the ended allocation’s leases and the unknown active ones orphaned, the live one valid, and re-runs to the same answer', async () => {
    const ledger = started();

    // Two machines of one model; the first runs three containers (one with an IPv6 lease).
    const doomed = await acquire(ledger, 'node-a', '0');
    const kept = await acquire(ledger, 'node-b', '1');
    const ended: HeldLease[] = [
      await hostLease(ledger, doomed, { ip: '10.50.0.10', mac: '52:54:00:50:00:10' }),
      await container(ledger, doomed, 'juju-0-lxd-0', { ip: '10.50.1.11', mac: '00:16:3e:50:01:11' }),
      await container(ledger, doomed, 'juju-0-lxd-1', { ip: '10.50.1.12', mac: '00:16:3e:50:01:12' }),
      await container(ledger, doomed, 'juju-0-lxd-2', { ip: '2001:db8:50::12', mac: '00:16:3e:50:01:13' }),
    ];
    const live = await container(ledger, kept, 'juju-1-lxd-0', { ip: '10.50.2.21', mac: '00:16:3e:50:02:21' });

    // The model is torn down; nobody told the DHCP server.
    const released = await ledger.post(`/v1/allocations/${doomed}/release`, { requestId: newRequestId('teardown') });
    assert.equal(released.status, 200, JSON.stringify(released.body));

    // The DHCP server's lease file: a thousand leases the ledger never heard of, then ours, all still active.
    const unknown: HeldLease[] = [
      { ip: '10.60.0.1', mac: '52:54:00:60:00:01' },
      { ip: '10.60.0.2', mac: '52:54:00:60:00:02' },
    ];
    const file = join(dir, 'dhcpd.leases');
    const generated = generateIscLeaseFile(file, {
      leases: 1_000,
      seed: 2,
      // Leases around two days from now: every active one is still held by the server, so each must be judged.
      now: Math.floor(Date.now() / 1000) + 2 * 86_400,
      malformedRatio: 0.01,
      ipv6Ratio: 0.05,
      extra: [...ended.map((l, i) => active(l, `doomed-${i}`)), active(live, 'kept'), ...unknown.map((l, i) => active(l, `stray-${i}`))],
    });

    const run = await runCli(['import', file, '--url', ledger.url, '--source', 'dhcp-1', '--batch', '250', '--report', 'json'], {
      LEDGER_API_KEY: ledger.apiKey!,
    });
    assert.equal(run.status, 0, run.stderr);
    const report: ImportReport = JSON.parse(run.stdout);
    assert.equal(report.records, generated.expected.size);
    assert.equal(report.skipped.length, generated.malformed, 'broken blocks are skipped with their lines, the rest imported');
    assert.equal(report.posted, report.records);

    const orphaned = new Map(report.orphaned.map((o) => [o.ip, o]));
    for (const lease of [...ended, ...unknown]) {
      const named = orphaned.get(lease.ip);
      assert.ok(named, `${lease.ip} must be named orphaned: ${JSON.stringify(report.orphaned.slice(0, 5))}`);
      assert.equal(named.mac, lease.mac);
      assert.ok(named.reason.length > 0);
    }
    assert.equal(orphaned.has(live.ip), false, 'the live allocation’s lease is not orphaned');
    // Never valid when orphaned: of every active lease in the file, only the live owner's is valid.
    assert.equal(report.verdicts!.valid, 1);
    assert.equal(report.verdicts!.orphaned, report.states.active - 1);
    assert.equal(
      Object.values(report.verdicts!).reduce((a, b) => a + b, 0),
      report.records,
    );

    // The import is safe to run again: the same answers.
    const again = await runCli(['import', file, '--url', ledger.url, '--source', 'dhcp-1', '--report', 'json'], { LEDGER_API_KEY: ledger.apiKey! });
    assert.equal(again.status, 0, again.stderr);
    const second: ImportReport = JSON.parse(again.stdout);
    assert.deepEqual(second.verdicts, report.verdicts);
    assert.deepEqual(second.orphaned.map((o) => o.ip).sort(), report.orphaned.map((o) => o.ip).sort());

    // The human report names them too.
    const table = await runCli(['import', file, '--url', ledger.url, '--source', 'dhcp-1'], { LEDGER_API_KEY: ledger.apiKey! });
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /orphaned +[\d,]+/);
  });

  it('does the same from a Kea memfile set of thousands of rows (.2, .1, then the file)', async () => {
    const ledger = started();
    const doomed = await acquire(ledger, 'node-k1', '5');
    const kept = await acquire(ledger, 'node-k2', '6');
    const ended: HeldLease[] = [
      await hostLease(ledger, doomed, { ip: '10.70.0.10', mac: '52:54:00:70:00:10' }),
      await container(ledger, doomed, 'juju-5-lxd-0', { ip: '10.70.1.11', mac: '00:16:3e:70:01:11' }),
      await container(ledger, doomed, 'juju-5-lxd-1', { ip: '10.70.1.12', mac: '00:16:3e:70:01:12' }),
    ];
    const live = await container(ledger, kept, 'juju-6-lxd-0', { ip: '10.70.2.21', mac: '00:16:3e:70:02:21' });
    assert.equal((await ledger.post('/v1/models/release', { controller: 'autopilot', model: 'openstack', force: true })).status, 200);
    // Keep the live one: a fresh allocation in another model holds it.
    const survivor = await acquire(ledger, 'node-k3', '7');
    const liveAgain = await container(ledger, survivor, 'juju-7-lxd-0', { ip: '10.70.3.31', mac: '00:16:3e:70:03:31' });

    const path = join(dir, 'kea-leases4.csv');
    const generated = generateKeaLeaseFiles(path, {
      leases: 3_000,
      seed: 7,
      split: true,
      now: Math.floor(Date.now() / 1000) + 2 * 86_400,
      malformedRatio: 0.01,
      extra: [...ended.map((l, i) => active(l, `k-doomed-${i}`)), active(live, 'k-kept'), active(liveAgain, 'k-live')],
    });
    assert.equal(generated.files.length, 3);

    const run = await runCli(['import', path, '--url', ledger.url, '--source', 'kea-1', '--report', 'json'], { LEDGER_API_KEY: ledger.apiKey! });
    assert.equal(run.status, 0, run.stderr);
    const report: ImportReport = JSON.parse(run.stdout);
    assert.equal(report.records, generated.expected.size);
    assert.ok(report.records >= 3_000);
    assert.equal(report.skipped.length, generated.malformed);
    const orphaned = new Set(report.orphaned.map((o) => o.ip));
    for (const lease of [...ended, live]) assert.ok(orphaned.has(lease.ip), `${lease.ip} of the released model must be named orphaned`);
    assert.equal(orphaned.has(liveAgain.ip), false, "a live owner's lease is not orphaned");
    assert.equal(report.verdicts!.valid, 1, "only the live owner's lease is valid");
  });

  it('fails with exit code 1 and says why when the key is refused', async () => {
    const ledger = started();
    const file = join(dir, 'small.leases');
    generateIscLeaseFile(file, { leases: 10, seed: 3 });
    const refused = await runCli(['import', file, '--url', ledger.url], { LEDGER_API_KEY: 'lk_nobody_secret' });
    assert.equal(refused.status, 1, refused.stdout);
    assert.match(refused.stderr, /the ledger answered 401/);
  });
});
