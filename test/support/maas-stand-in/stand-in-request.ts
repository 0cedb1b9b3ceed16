import type { IncomingMessage } from 'node:http';

/** One request as the MAAS stand-in received it: what a test asserts MAAS was (never) asked. */
export interface ReceivedRequest {
  method: string;
  /** The path under /MAAS/api/2.0/, e.g. `machines/4y3h7n/`. */
  path: string;
  op: string | null;
  query: URLSearchParams;
  form: URLSearchParams;
}

/** A MAAS answer: JSON for success, text for most errors, a dict of field errors for bad forms (as MAAS does). */
export interface StandInAnswer {
  status: number;
  json?: unknown;
  text?: string;
}

export const ok = (json: unknown): StandInAnswer => ({ status: 200, json });
export const text = (status: number, body: string): StandInAnswer => ({ status, text: body });
export const fieldErrors = (errors: Record<string, string[]>): StandInAnswer => ({ status: 400, json: errors });
export const notFound = (): StandInAnswer => text(404, 'Not Found');
export const unrecognised = (request: ReceivedRequest): StandInAnswer => text(400, `Unrecognised signature: method=${request.method} op=${request.op ?? ''}`);

export const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });

/** The OAuth 1.0 PLAINTEXT credentials of an Authorization header (`OAuth k="v", ...`), values url-decoded. */
export const oauthParameters = (header: string | undefined): Record<string, string> => {
  const parameters: Record<string, string> = {};
  if (!header?.startsWith('OAuth ')) return parameters;
  for (const match of header.matchAll(/([a-z_]+)="([^"]*)"/g)) parameters[match[1]] = decodeURIComponent(match[2].replace(/\+/g, ' '));
  return parameters;
};
