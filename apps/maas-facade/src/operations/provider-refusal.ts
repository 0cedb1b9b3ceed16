import type { MaasAnswer } from '../maas/maas-answer';
import type { FacadeContext } from './facade-request';

/**
 * MAAS would not allocate the machine the ledger picked: what MAAS says of it is posted as
 * an observation (by the facade, so its actor is the facade). Owned at MAAS by someone
 * else, it was taken out of band, and the ledger revokes the allocation just made for it;
 * otherwise (MAAS refused it for a constraint only MAAS checks) the allocation is released.
 * Either way the ledger's log tells why the caller got another machine, and nothing else:
 * an allocation the facade's watcher ended first is left as it is.
 */
export const reportProviderRefusal = async ({ caller, maas, ledger, request, logger }: FacadeContext, nodeId: string, token: string, refusal: MaasAnswer) => {
  const observedAt = new Date().toISOString();
  const seen = await maas.request({ method: 'GET', path: `machines/${nodeId}/` });
  const machine = seen.json as { status_name?: unknown; owner?: unknown } | undefined;
  const status = machine?.status_name;
  const owner = typeof machine?.owner === 'string' && machine.owner.length > 0 ? machine.owner.slice(0, 64) : null;
  const heldOutOfBand = owner !== null && owner !== (await maas.whoAmI());
  logger.warn({ correlationId: request.correlationId, nodeId, maasStatus: refusal.status, status, owner }, 'MAAS refused the machine the ledger picked');
  if (typeof status === 'string') {
    const source = `maas-facade: allocate refused (${refusal.status})${heldOutOfBand ? `, owned at MAAS by ${owner}` : ''}`;
    const observed = await ledger.asFacade(request.correlationId).POST('/v1/observations/nodes', {
      body: { nodeId, providerStatus: status.slice(0, 64), observedAt, source, ...(heldOutOfBand ? { heldOutOfBand } : {}) },
    });
    if (observed.data?.status === 'revoked') return;
  }
  // The facade's watcher may have seen the machine owned out of band first and revoked the
  // allocation already: a release of it would then be recorded as the caller's refused command.
  // (The observation's answer cannot tell: it names no token when it changes nothing.)
  const allocation = await caller.ledger.GET('/v1/allocations/{token}', { params: { path: { token } } });
  if (allocation.data && !allocation.data.live) return;
  await caller.ledger.POST('/v1/allocations/{token}/release', {
    params: { path: { token } },
    body: { requestId: `maas-facade-refused-${token}`.slice(0, 128) },
  });
};
