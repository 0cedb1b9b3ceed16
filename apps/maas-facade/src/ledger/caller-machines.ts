import type { Caller } from './ledger-access';
import { LedgerUnavailable } from './ledger-access';

/** One of the caller's live allocations: the MAAS machine, and the token that is the caller's instance id for it. */
export interface LiveMachine {
  nodeId: string;
  token: string;
  model: string;
  agentName: string | null;
  status: string;
}

/**
 * The caller's live allocations, as the ledger's node view shows them to the caller's key:
 * the ledger applies the key's scope, showing another controller's (or, for a key limited
 * to models, another model's) allocation only as `{foreign: true}`. An allocation that
 * ended is in no node's view: its token is gone.
 */
export const liveMachinesOf = async (caller: Caller): Promise<LiveMachine[]> => {
  const { data, response } = await caller.ledger.GET('/v1/nodes', {});
  if (!data) throw new LedgerUnavailable(`the ledger answered GET /v1/nodes with ${response.status}`);
  return data.nodes.flatMap((node) => {
    const allocation = node.allocation;
    if (!allocation || 'foreign' in allocation) return [];
    return [
      {
        nodeId: node.nodeId,
        token: allocation.token,
        model: allocation.consumer.model,
        agentName: allocation.consumer.agentName ?? null,
        status: allocation.status,
      },
    ];
  });
};

/** What an id a caller names is, to the ledger: one of its live instances, one of its ended ones (stale), or nothing of its. */
export type IdStanding = { kind: 'live'; machine: LiveMachine } | { kind: 'stale'; nodeId: string } | { kind: 'unknown' };

export const standingOf = async (caller: Caller, id: string, live: LiveMachine[]): Promise<IdStanding> => {
  const machine = live.find((m) => m.token === id);
  if (machine) return { kind: 'live', machine };
  // Tokens are opaque here: the ledger says whose an id is (403: another controller's; 400/404: never issued).
  const { data, response } = await caller.ledger.GET('/v1/allocations/{token}', { params: { path: { token: id } } });
  if (data && !data.live) return { kind: 'stale', nodeId: data.nodeId };
  // Live but not in the list read a moment ago: acquired since.
  if (data)
    return {
      kind: 'live',
      machine: { nodeId: data.nodeId, token: id, model: data.consumer.model, agentName: data.consumer.agentName ?? null, status: data.status },
    };
  if ([400, 403, 404].includes(response.status)) return { kind: 'unknown' };
  throw new LedgerUnavailable(`the ledger answered GET /v1/allocations/{token} with ${response.status}`);
};
