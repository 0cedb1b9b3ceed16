import type { Logger } from 'pino';
import type { Caller, LedgerAccess } from '../ledger/ledger-access';
import type { MaasUpstream } from '../maas/maas-upstream';

/** A request to the facade, under the API root (`machines/`, `machines/{id}/`), its op and parameters parsed. */
export interface FacadeRequest {
  method: string;
  path: string;
  /** `?op=`; null when absent or empty (create calls carry an empty one). */
  op: string | null;
  query: URLSearchParams;
  /** A form body (application/x-www-form-urlencoded), else empty. */
  form: URLSearchParams;
  /** Any other body, forwarded as it came. */
  raw: { body: Buffer; contentType: string } | null;
  correlationId: string;
}

/** What an operation works with: the authenticated caller, MAAS (as the facade) and the ledger. */
export interface FacadeContext {
  request: FacadeRequest;
  caller: Caller;
  maas: MaasUpstream;
  ledger: LedgerAccess;
  logger: Logger;
}
