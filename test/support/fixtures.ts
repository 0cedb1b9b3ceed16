import type { LedgerProcess } from '@ledger/testing';

let counter = 0;
/** A requestId unique within this test process. */
export const newRequestId = (label = 'req'): string => `${label}-${process.pid}-${Date.now()}-${++counter}`;

export const enlist = (ledger: LedgerProcess, nodeId: string, extra: Record<string, unknown> = {}) =>
  ledger.post('/v1/nodes', { nodeId, hostname: `${nodeId}.maas`, arch: 'amd64', cpuCount: 8, memoryMb: 16384, tags: [], zone: 'default', ...extra });

export const consumer = (controller: string, model: string, machine?: string) => ({ controller, model, ...(machine ? { machine } : {}) });
