import { json, notFound, type MaasAnswer } from '../maas/maas-answer';
import { liveMachinesOf, standingOf } from '../ledger/caller-machines';
import { IdMap } from '../ids/id-map';
import { deviceOfCaller } from './devices';
import type { FacadeContext } from './facade-request';

/**
 * nodes/{id}/...: a machine's or a device's interfaces (PUT, op=link_subnet,
 * op=create_physical). The id is one of the caller's live machine ids (mapped to MAAS's)
 * or a device under one of them; anything else is 404, as MAAS answers an unknown node.
 */
export const nodeOperation = async (context: FacadeContext, id: string): Promise<MaasAnswer> => {
  const live = await liveMachinesOf(context.caller);
  const map = new IdMap(live);
  if (map.maasIdOf(id) === undefined) {
    const standing = await standingOf(context.caller, id, live);
    if (standing.kind !== 'unknown' || !(await deviceOfCaller(context, id))) return notFound();
  }
  return forwardMapped(context, map);
};

/** Everything else (spaces, subnets, VLANs, fabrics, zones, domains, boot resources, static routes, tags...): forwarded with ids mapped. */
export const passThrough = async (context: FacadeContext): Promise<MaasAnswer> => forwardMapped(context, new IdMap(await liveMachinesOf(context.caller)));

const forwardMapped = async ({ request, maas }: FacadeContext, map: IdMap): Promise<MaasAnswer> => {
  const answer = await maas.request({
    method: request.method,
    path: map.pathToMaas(request.path),
    query: map.paramsToMaas(request.query),
    ...(request.raw ? { raw: request.raw } : { form: map.paramsToMaas(request.form) }),
  });
  return answer.json !== undefined ? json(map.toCaller(answer.json), answer.status) : answer;
};
