import type { LedgerProcess } from '@ledger/testing';
import { benchLease } from './dhcp-agent-runner';

const DEVICES_PER_NODE = 100;

/** Registers `count` containers (devices) under live allocations, 100 per node, with the MACs of benchLease. */
export const registerBenchDevices = async (ledger: LedgerProcess, count: number, prefix: string): Promise<void> => {
  let token = '';
  for (let n = 0; n < count; n++) {
    if (n % DEVICES_PER_NODE === 0) {
      const nodeId = `${prefix}-${n / DEVICES_PER_NODE}`;
      const enlisted = await ledger.post('/v1/nodes', { nodeId, hostname: `${nodeId}.maas` });
      if (enlisted.status !== 201) throw new Error(`enlist ${nodeId}: ${enlisted.status}`);
      const acquired = await ledger.post('/v1/allocations', { requestId: `${nodeId}-acquire`, consumer: { controller: 'bench', model: prefix }, nodeId });
      if (acquired.status !== 201) throw new Error(`acquire ${nodeId}: ${acquired.status}`);
      token = acquired.body.token;
    }
    const device = await ledger.post(`/v1/allocations/${token}/devices`, { hostname: `c${n}`, mac: benchLease(n).mac });
    if (device.status !== 201) throw new Error(`device ${n}: ${device.status} ${JSON.stringify(device.body)}`);
  }
};
