import { json, noLongerYours, notFound, text, type MaasAnswer } from '../maas/maas-answer';
import { liveMachinesOf, standingOf, type LiveMachine } from '../ledger/caller-machines';
import { LedgerUnavailable } from '../ledger/ledger-access';
import { IdMap } from '../ids/id-map';
import { releaseInLedger } from './release-machines';
import { recordOwnerData } from './owner-data';
import type { FacadeContext } from './facade-request';

/**
 * machines/{id}/ and its ops, for one of the caller's ids. A live id is mapped to MAAS's
 * machine; deploy, release and set_owner_data are recorded in the ledger before they are
 * forwarded. A stale id is answered 409 (404 for a read) and never reaches MAAS; an id never
 * issued to the caller is 404, as MAAS answers for a machine it does not have.
 */
export const machineOperation = async (context: FacadeContext, id: string): Promise<MaasAnswer> => {
  const { request, caller } = context;
  const standing = await standingOf(caller, id, await liveMachinesOf(caller));
  if (standing.kind === 'unknown') return notFound();
  if (standing.kind === 'stale') {
    if (request.method === 'GET') return notFound();
    // Recorded in the ledger as a refused command of a stale token, for the incident review.
    if (request.op === 'release') await releaseInLedger(context, id);
    if (request.op === 'set_owner_data') await recordOwnerData(context, id);
    return noLongerYours(id);
  }
  const machine = standing.machine;
  if (request.method === 'POST' && request.op === 'deploy') {
    const refused = await recordDeploying(context, machine);
    if (refused) return refused;
  }
  if (request.method === 'POST' && request.op === 'set_owner_data') {
    const refused = await recordOwnerData(context, machine.token);
    if (refused) return refused;
  }
  if (request.method === 'POST' && request.op === 'release') {
    const outcome = await releaseInLedger(context, id);
    if (outcome.kind !== 'released') return noLongerYours(id);
  }
  return forward(context, machine);
};

const recordDeploying = async ({ caller }: FacadeContext, machine: LiveMachine): Promise<MaasAnswer | null> => {
  const { data, error, response } = await caller.ledger.POST('/v1/allocations/{token}/deploying', { params: { path: { token: machine.token } }, body: {} });
  if (data) return null;
  const refusal = error as { code?: string; message?: string } | undefined;
  if (response.status === 409 && refusal?.code === 'stale_token') return noLongerYours(machine.token);
  if (response.status === 409) return text(409, `Can't deploy this machine now: ${refusal?.message ?? 'refused by the provisioning ledger'}`);
  throw new LedgerUnavailable(`the ledger answered a deployment report with ${response.status}`);
};

/** The request, ids mapped, to MAAS; its answer, ids mapped back. */
const forward = async ({ request, maas }: FacadeContext, machine: LiveMachine): Promise<MaasAnswer> => {
  const map = new IdMap([machine]);
  const query = map.paramsToMaas(request.query);
  const answer = await maas.request({
    method: request.method,
    path: map.pathToMaas(request.path),
    query,
    ...(request.raw ? { raw: request.raw } : { form: map.paramsToMaas(request.form) }),
  });
  return answer.json !== undefined ? json(map.toCaller(answer.json), answer.status) : answer;
};
