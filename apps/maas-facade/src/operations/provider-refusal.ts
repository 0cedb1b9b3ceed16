import type { MaasAnswer } from '../maas/maas-answer';
import type { FacadeContext } from './facade-request';

/**
 * MAAS would not allocate the machine the ledger picked: what MAAS says of it is posted as
 * an observation (by the facade, so its actor is the facade), and the allocation it was
 * acquired for is released, so the ledger's log tells why the caller got another machine.
 */
export const reportProviderRefusal = async ({ caller, maas, ledger, request, logger }: FacadeContext, nodeId: string, token: string, refusal: MaasAnswer) => {
  const observedAt = new Date().toISOString();
  const seen = await maas.request({ method: 'GET', path: `machines/${nodeId}/` });
  const status = (seen.json as { status_name?: unknown } | undefined)?.status_name;
  logger.warn({ correlationId: request.correlationId, nodeId, maasStatus: refusal.status, status }, 'MAAS refused the machine the ledger picked');
  if (typeof status === 'string') {
    await ledger.asFacade(request.correlationId).POST('/v1/observations/nodes', {
      body: { nodeId, providerStatus: status.slice(0, 64), observedAt, source: `maas-facade: allocate refused (${refusal.status})` },
    });
  }
  await caller.ledger.POST('/v1/allocations/{token}/release', {
    params: { path: { token } },
    body: { requestId: `maas-facade-refused-${token}`.slice(0, 128) },
  });
};
