import { createLedgerClient, type LedgerApi } from '@ledger/client';
import { ledgerKeyOfMaasCredentials } from '@ledger/access';
import { credentialsOf } from '../maas/oauth-plaintext';

/** The caller as the ledger knows it (GET /v1/whoami): a consumer key acting for one controller. */
export interface CallerPrincipal {
  name: string;
  controller: string;
  models: string[] | null;
}

/** A request's caller: its principal, and the ledger spoken to with the caller's own key, so the ledger applies its scope. */
export interface Caller {
  principal: CallerPrincipal;
  ledger: LedgerApi;
}

/** The ledger answered something other than yes or no (down, overloaded): the facade answers 503 so Juju retries. */
export class LedgerUnavailable extends Error {}

const withCorrelationId = (correlationId: string) => ({
  onRequest({ request }: { request: Request }) {
    request.headers.set('x-correlation-id', correlationId);
    return request;
  },
});

/** How the facade reaches the ledger: as each caller (their key rebuilt from the MAAS credentials) or as itself. */
export class LedgerAccess {
  constructor(
    private readonly ledgerUrl: string,
    private readonly facadeKey: string,
  ) {}

  client(apiKey: string, correlationId: string): LedgerApi {
    return createLedgerClient({ baseUrl: this.ledgerUrl, apiKey, middleware: [withCorrelationId(correlationId)] });
  }

  /** The facade's own client (provider role): enlisting nodes and reporting observations. */
  asFacade(correlationId: string): LedgerApi {
    return this.client(this.facadeKey, correlationId);
  }

  /** The caller behind a MAAS Authorization header, or null when there is no valid consumer key in it (MAAS answers 401). */
  async authenticate(authorization: string | undefined, correlationId: string): Promise<Caller | null> {
    const credentials = credentialsOf(authorization);
    const key = credentials && ledgerKeyOfMaasCredentials(credentials.consumerKey, credentials.tokenKey, credentials.tokenSecret);
    if (!key) return null;
    const ledger = this.client(key, correlationId);
    const { data, response } = await ledger.GET('/v1/whoami', {});
    if (response.status === 401 || response.status === 403) return null;
    if (!data) throw new LedgerUnavailable(`the ledger answered whoami with ${response.status}`);
    if (data.role !== 'consumer' || !data.controller) return null;
    return { principal: { name: data.name, controller: data.controller, models: data.models ?? null }, ledger };
  }
}
