import type { LedgerProcess } from '@ledger/testing';
import { benchLease } from './dhcp-agent-runner';

const DEVICES_PER_NODE = 100;

/** Nodes registered at once: the ledger's group commit takes their appends together. */
const PARALLEL_NODES = 16;

const registerNode = async (ledger: LedgerProcess, prefix: string, node: number, count: number): Promise<void> => {
  const nodeId = `${prefix}-${node}`;
  const enlisted = await ledger.post('/v1/nodes', { nodeId, hostname: `${nodeId}.maas` });
  if (enlisted.status !== 201) throw new Error(`enlist ${nodeId}: ${enlisted.status}`);
  const acquired = await ledger.post('/v1/allocations', { requestId: `${nodeId}-acquire`, consumer: { controller: 'bench', model: prefix }, nodeId });
  if (acquired.status !== 201) throw new Error(`acquire ${nodeId}: ${acquired.status}`);
  for (let n = node * DEVICES_PER_NODE; n < Math.min(count, (node + 1) * DEVICES_PER_NODE); n++) {
    const device = await ledger.post(`/v1/allocations/${acquired.body.token}/devices`, { hostname: `c${n}`, mac: benchLease(n).mac });
    if (device.status !== 201) throw new Error(`device ${n}: ${device.status} ${JSON.stringify(device.body)}`);
  }
};

/** Registers `count` containers (devices) under live allocations, 100 per node, with the MACs of benchLease. */
export const registerBenchDevices = async (ledger: LedgerProcess, count: number, prefix: string): Promise<void> => {
  const nodes = Array.from({ length: Math.ceil(count / DEVICES_PER_NODE) }, (_, node) => node);
  const worker = async () => {
    for (let node = nodes.shift(); node !== undefined; node = nodes.shift()) await registerNode(ledger, prefix, node, count);
  };
  await Promise.all(Array.from({ length: PARALLEL_NODES }, worker));
};
