import { json, type MaasAnswer } from '../maas/maas-answer';
import { liveMachinesOf } from '../ledger/caller-machines';
import { IdMap } from '../ids/id-map';
import type { FacadeContext } from './facade-request';

/**
 * GET machines/: only the caller's live instances, each under its token. A stale id is
 * simply absent, which is how Juju's client learns an instance is gone (it has no 404
 * handling for lists). `agent_name` filters by the agent name of the allocation (Juju's
 * model), `id` by the caller's ids; the other filters are MAAS's.
 */
export const listMachines = async ({ request, caller, maas }: FacadeContext): Promise<MaasAnswer> => {
  const ids = request.query.getAll('id');
  const agentName = request.query.get('agent_name');
  const live = (await liveMachinesOf(caller)).filter(
    (m) => (ids.length === 0 || ids.includes(m.token)) && (agentName === null || m.agentName === agentName || m.model === agentName),
  );
  if (live.length === 0) return json([]);
  const map = new IdMap(live);
  const query = new URLSearchParams();
  for (const [key, value] of request.query) if (key !== 'id' && key !== 'agent_name' && key !== 'op') query.append(key, value);
  for (const machine of live) query.append('id', machine.nodeId);
  const answer = await maas.request({ method: 'GET', path: 'machines/', query });
  if (answer.status !== 200 || !Array.isArray(answer.json)) return answer;
  return json(map.toCaller(answer.json));
};
