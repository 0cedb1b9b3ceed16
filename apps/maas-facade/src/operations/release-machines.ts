import { json, text, type MaasAnswer } from '../maas/maas-answer';
import { LedgerUnavailable } from '../ledger/ledger-access';
import type { FacadeContext } from './facade-request';

type Outcome = { kind: 'released'; id: string; nodeId: string } | { kind: 'stale'; id: string } | { kind: 'unknown'; id: string };

/**
 * Ends an allocation in the ledger first: only a release the ledger accepted is forwarded
 * to MAAS. A stale token is refused by the ledger (and the refusal recorded there), so a
 * holder whose machine went to someone else never releases it (seed 1).
 */
export const releaseInLedger = async ({ caller }: FacadeContext, id: string): Promise<Outcome> => {
  const { data, response } = await caller.ledger.POST('/v1/allocations/{token}/release', { params: { path: { token: id } }, body: {} });
  if (data) return { kind: 'released', id, nodeId: data.nodeId };
  if (response.status === 409) return { kind: 'stale', id };
  if ([400, 403, 404].includes(response.status)) return { kind: 'unknown', id };
  throw new LedgerUnavailable(`the ledger answered a release with ${response.status}`);
};

/**
 * POST machines/?op=release (Juju's StopInstances): the machines the ledger released are
 * released at MAAS in one call; any other id is answered 409, which Juju's client counts
 * as released ("already released") and MAAS never hears of it. Never 403: Juju would
 * invalidate its cloud credential.
 */
export const releaseMachines = async (context: FacadeContext): Promise<MaasAnswer> => {
  const ids = context.request.form.getAll('machines');
  if (ids.length === 0) return json({ machines: ['This field is required.'] }, 400);
  const outcomes: Outcome[] = [];
  for (const id of ids) outcomes.push(await releaseInLedger(context, id));
  const released = outcomes.filter((o): o is Extract<Outcome, { kind: 'released' }> => o.kind === 'released');
  const refused = outcomes.filter((o) => o.kind !== 'released').map((o) => o.id);
  if (released.length > 0) {
    const form = new URLSearchParams();
    for (const machine of released) form.append('machines', machine.nodeId);
    const comment = context.request.form.get('comment');
    if (comment) form.set('comment', comment);
    const answer = await context.maas.request({ method: 'POST', path: 'machines/', query: new URLSearchParams({ op: 'release' }), form });
    if (answer.status !== 200) return answer;
  }
  if (refused.length > 0) {
    return text(409, `Machine(s) ${refused.join(', ')} are no longer allocated to you (released out of band or ended): nothing was done to them.`);
  }
  return json(released.map((machine) => machine.id));
};
