import assert from 'node:assert/strict';
import type { LedgerProcess } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './fixtures';
import type { Acquired, Schema } from './answers';

/** The shape of seed 2's cloud: nodes of one model, containers on them, each with a DHCP lease, and a static host lease per node. */
export interface Region {
  controller: string;
  model: string;
  nodes: { nodeId: string; token: string; hostIp: string; hostMac: string }[];
  containers: { deviceId: string; nodeId: string; token: string; ip: string; mac: string }[];
}

const hex = (n: number) => n.toString(16).padStart(2, '0');

/**
 * Acquires `nodeIds` for one model, registers `containers` containers spread over them
 * (as Juju's autopilot does with LXC) and grants every container a DHCP lease from the
 * dynamic range and every host a static lease. Node ids must be enlisted already or new.
 */
export const buildRegion = async (
  ledger: LedgerProcess,
  options: { controller: string; model: string; nodeIds: string[]; containers: number; hostNet: string; containerNet: string; macPrefix: string },
): Promise<Region> => {
  const region: Region = { controller: options.controller, model: options.model, nodes: [], containers: [] };
  for (const [n, nodeId] of options.nodeIds.entries()) {
    if ((await ledger.get<Schema<'NodeResponseDto'>>(`/v1/nodes/${nodeId}`)).status === 404) assert.equal((await enlist(ledger, nodeId)).status, 201);
    const acquired = await ledger.post<Acquired>('/v1/allocations', {
      requestId: newRequestId('acquire'),
      consumer: consumer(options.controller, options.model, String(n)),
      nodeId,
    });
    assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
    const hostIp = `${options.hostNet}.${10 + n}`;
    const hostMac = `${options.macPrefix}:ff:${hex(n)}`;
    const lease = await ledger.post('/v1/leases', { ip: hostIp, mac: hostMac, owner: { token: acquired.body.token }, kind: 'static' });
    assert.equal(lease.status, 201, JSON.stringify(lease.body));
    region.nodes.push({ nodeId, token: acquired.body.token, hostIp, hostMac });
  }
  for (let c = 0; c < options.containers; c++) {
    const host = region.nodes[c % region.nodes.length];
    const mac = `${options.macPrefix}:${hex(c >> 8)}:${hex(c & 0xff)}`;
    const device = await ledger.post<Schema<'RegisterDeviceResponseDto'>>(`/v1/allocations/${host.token}/devices`, {
      hostname: `juju-machine-${c % region.nodes.length}-lxc-${c}`,
      mac,
    });
    assert.equal(device.status, 201, JSON.stringify(device.body));
    const ip = `${options.containerNet}.${20 + c}`;
    const lease = await ledger.post('/v1/leases', {
      ip,
      mac,
      owner: { deviceId: device.body.deviceId },
      kind: 'dhcp',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    assert.equal(lease.status, 201, JSON.stringify(lease.body));
    region.containers.push({ deviceId: device.body.deviceId, nodeId: host.nodeId, token: host.token, ip, mac });
  }
  return region;
};

export const regionIps = (region: Region): string[] => [...region.nodes.map((n) => n.hostIp), ...region.containers.map((c) => c.ip)];

/** Polls `check` until it returns true or the deadline passes; `check` may assert on every intermediate state. */
export const eventually = async (deadlineMs: number, check: () => Promise<boolean>): Promise<number> => {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > deadlineMs) assert.fail(`not done within ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};
