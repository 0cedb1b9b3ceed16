/**
 * An answer in MAAS's own kind: JSON for success (every success but DELETE's), plain text
 * for most errors, a JSON dict of field errors for a bad form. Juju's client branches on
 * the status alone, so the status is what matters most: 409 and 400 on a release count as
 * "already released"; 401 and 403 invalidate the cloud credential (never answered for an
 * instance id: a stale one is a 409).
 */
export interface MaasAnswer {
  status: number;
  json?: unknown;
  text?: string;
}

export const json = (body: unknown, status = 200): MaasAnswer => ({ status, json: body });
export const text = (status: number, body: string): MaasAnswer => ({ status, text: body });
export const noContent = (): MaasAnswer => ({ status: 204 });
export const notFound = (): MaasAnswer => text(404, 'Not Found');
export const fieldErrors = (errors: Record<string, string[]>): MaasAnswer => json(errors, 400);
export const unauthorized = (): MaasAnswer => text(401, 'Authorization Error: Invalid API key.');
export const unrecognised = (method: string, op: string | null): MaasAnswer => text(400, `Unrecognised signature: method=${method} op=${op ?? ''}`);
/** What a stale instance id gets: the ledger gave its machine to another allocation (seed 1). */
export const noLongerYours = (id: string): MaasAnswer =>
  text(409, `Machine ${id} is no longer allocated to you: it was released out of band or ended (provisioning ledger: stale_token).`);
