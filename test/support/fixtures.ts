import type { LedgerClient } from '@ledger/testing';
import type { Schema } from './answers';

let counter = 0;
/** A requestId unique within this test process. */
export const newRequestId = (label = 'req'): string => `${label}-${process.pid}-${Date.now()}-${++counter}`;

/** Enlists a node through the typed client; `extra` may add or override fields (tests of bad input send bad ones). */
export const enlist = async (ledger: LedgerClient, nodeId: string, extra: Record<string, unknown> = {}) => {
  const body = { nodeId, hostname: `${nodeId}.maas`, arch: 'amd64', cpuCount: 8, memoryMb: 16384, tags: [], zone: 'default', ...extra };
  const { data, error, response } = await ledger.api.POST('/v1/nodes', { body: body as { nodeId: string; hostname: string } });
  // Read as the answer it should be: tests of a refusal read the error's fields, which are there then.
  return { status: response.status, body: (data ?? error) as Schema<'EnlistNodeResponseDto'> & Partial<Schema<'ApiErrorDto'>>, headers: response.headers };
};

export const consumer = (controller: string, model: string, machine?: string) => ({ controller, model, ...(machine ? { machine } : {}) });
