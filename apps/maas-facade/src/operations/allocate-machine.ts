import { randomUUID } from 'node:crypto';
import { fieldErrors, json, text, type MaasAnswer } from '../maas/maas-answer';
import { liveMachinesOf } from '../ledger/caller-machines';
import { LedgerUnavailable } from '../ledger/ledger-access';
import { IdMap } from '../ids/id-map';
import { parseAllocate, type AllocateRequest } from './allocate-constraints';
import { reportProviderRefusal } from './provider-refusal';
import type { FacadeContext } from './facade-request';

/** Rounds of "the ledger picks, MAAS refuses" before giving up: each refused machine is excluded from the next pick. */
const MAX_ROUNDS = 8;

const noMatch = (request: AllocateRequest, why: string): MaasAnswer =>
  text(
    409,
    `No available machine matches constraints: ${request.name ? `name=${request.name}` : request.systemId ? `system_id=${request.systemId}` : JSON.stringify(request.constraints)} (${why})`,
  );

/**
 * POST machines/?op=allocate: the ledger decides, MAAS executes. The ledger acquires a
 * node for the caller (by name or system_id, or by constraints), minting the token that
 * becomes the caller's instance id; the facade then allocates exactly that machine at
 * MAAS. A MAAS refusal (the machine was taken out of band, or fails a constraint only MAAS
 * knows) is reported to the ledger, the allocation ended, and the next node tried.
 * Seed 3: a caller that already holds the named machine under the same agent name gets
 * it (what `maas allocate name=X` then `juju bootstrap --to X` need); anyone else gets 409.
 */
export const allocateMachine = async (context: FacadeContext): Promise<MaasAnswer> => {
  const parsed = parseAllocate(context.request.form);
  if ('errors' in parsed) return fieldErrors(parsed.errors);
  const named = parsed.name !== null || parsed.systemId !== null;
  let nodeId: string | null = null;
  if (named) {
    nodeId = await nodeNamed(context, parsed);
    if (!nodeId) return noMatch(parsed, 'no such machine');
    const held = (await liveMachinesOf(context.caller)).find((m) => m.nodeId === nodeId);
    if (held && parsed.agentName !== null && held.agentName === parsed.agentName) return machineAnswer(context, held.nodeId, held.token);
  }
  const excluded: string[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const acquired = await acquire(context, parsed, nodeId, excluded);
    if ('answer' in acquired) return acquired.answer;
    const form = new URLSearchParams(parsed.forwarded);
    form.set('system_id', acquired.nodeId);
    const answer = await context.maas.request({ method: 'POST', path: 'machines/', query: new URLSearchParams({ op: 'allocate' }), form });
    if (answer.status === 200) return json(new IdMap([{ ...acquired, model: '', agentName: null, status: 'allocated' }]).toCaller(answer.json));
    await reportProviderRefusal(context, acquired.nodeId, acquired.token, answer);
    if (answer.status !== 409) return answer;
    if (named) return noMatch(parsed, 'MAAS refused it');
    excluded.push(acquired.nodeId);
  }
  return noMatch(parsed, `MAAS refused ${MAX_ROUNDS} machines in a row`);
};

/** The ledger node MAAS's name (hostname or FQDN) or system_id names, or null. */
const nodeNamed = async ({ caller }: FacadeContext, request: AllocateRequest): Promise<string | null> => {
  if (request.systemId) return request.systemId;
  const { data, response } = await caller.ledger.GET('/v1/nodes', {});
  if (!data) throw new LedgerUnavailable(`the ledger answered GET /v1/nodes with ${response.status}`);
  const name = request.name ?? '';
  return data.nodes.find((node) => node.hostname === name || name.startsWith(`${node.hostname}.`))?.nodeId ?? null;
};

const acquire = async (
  { caller }: FacadeContext,
  request: AllocateRequest,
  nodeId: string | null,
  excluded: string[],
): Promise<{ nodeId: string; token: string } | { answer: MaasAnswer }> => {
  const consumer = {
    controller: caller.principal.controller,
    model: request.agentName ?? 'maas-api',
    ...(request.agentName ? { agentName: request.agentName } : {}),
  };
  const { data, error, response } = await caller.ledger.POST('/v1/allocations', {
    body: {
      requestId: `maas-facade-${randomUUID()}`,
      consumer,
      ...(nodeId ? { nodeId } : { constraints: request.constraints, ...(excluded.length ? { excludeNodeIds: excluded } : {}) }),
    },
  });
  if (data?.token) return { nodeId: data.nodeId, token: data.token };
  const message = (error as { message?: string } | undefined)?.message ?? '';
  if (response.status === 409 || response.status === 404) return { answer: noMatch(request, message) };
  if (response.status === 400) return { answer: text(400, message) };
  if (response.status === 403) return { answer: text(403, `This key may not allocate for model ${consumer.model}.`) };
  throw new LedgerUnavailable(`the ledger answered an acquire with ${response.status}`);
};

/** A held machine as MAAS shows it, under the caller's id (an allocate answer carries constraint matches). */
const machineAnswer = async ({ maas }: FacadeContext, nodeId: string, token: string): Promise<MaasAnswer> => {
  const answer = await maas.request({ method: 'GET', path: `machines/${nodeId}/` });
  if (answer.status !== 200) return answer;
  const map = new IdMap([{ nodeId, token, model: '', agentName: null, status: 'allocated' }]);
  return json({ ...(map.toCaller(answer.json) as Record<string, unknown>), constraints_by_type: {} });
};
