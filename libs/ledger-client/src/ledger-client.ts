import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './ledger-api';

export type LedgerApi = Client<paths>;

export interface LedgerClientOptions {
  /** The ledger, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** Sent as a bearer token when given. */
  apiKey?: string | null;
  /** A fetch of the caller's (tests, retries); the global one by default. */
  fetch?: typeof fetch;
  middleware?: Middleware[];
}

/**
 * The ledger's HTTP API as typed calls, derived from its OpenAPI document:
 * `api.GET('/v1/nodes/{nodeId}', { params: { path: { nodeId } } })` returns
 * `{ data, error, response }` typed by the document's schemas for that route.
 */
export const createLedgerClient = (options: LedgerClientOptions): LedgerApi => {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (options.middleware?.length) client.use(...options.middleware);
  return client;
};
