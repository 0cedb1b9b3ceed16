import { authorizationFor } from './oauth-plaintext';
import type { MaasAnswer } from './maas-answer';

export interface UpstreamRequest {
  method: string;
  /** Under the API root, e.g. `machines/4y3h7n/`. */
  path: string;
  query?: URLSearchParams;
  form?: URLSearchParams;
  /** A body forwarded as it came (e.g. a multipart upload), with its content type. */
  raw?: { body: Buffer; contentType: string };
}

/** The real MAAS, spoken to with the facade's own key. Answers are returned whatever their status: MAAS's own answer is the answer. */
export class MaasUpstream {
  private readonly apiRoot: string;
  private user: string | null = null;

  constructor(
    maasUrl: string,
    private readonly apiKey: string,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.apiRoot = `${maasUrl.replace(/\/+$/, '')}/api/2.0/`;
  }

  async request(request: UpstreamRequest): Promise<MaasAnswer> {
    const url = new URL(request.path, this.apiRoot);
    if (request.query) url.search = request.query.toString();
    const headers: Record<string, string> = { authorization: authorizationFor(this.apiKey, this.clock()), accept: 'application/json' };
    let body: string | Buffer | undefined;
    const bodiless = request.method === 'GET' || request.method === 'HEAD';
    if (bodiless) {
      // No body on a read: fetch refuses one.
    } else if (request.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = request.form.toString();
    } else if (request.raw) {
      headers['content-type'] = request.raw.contentType;
      body = request.raw.body;
    }
    const response = await fetch(url, { method: request.method, headers, body, signal: AbortSignal.timeout(60_000) });
    const payload = await response.text();
    if (/json/.test(response.headers.get('content-type') ?? '') && payload.length > 0) {
      try {
        return { status: response.status, json: JSON.parse(payload) as unknown };
      } catch {
        // Not JSON after all: passed on as text.
      }
    }
    return { status: response.status, text: payload };
  }

  /** The facade's own MAAS user (machines it allocated are owned by it), asked once. */
  async whoAmI(): Promise<string> {
    if (this.user) return this.user;
    const answer = await this.request({ method: 'GET', path: 'users/', query: new URLSearchParams({ op: 'whoami' }) });
    const username = (answer.json as { username?: unknown } | undefined)?.username;
    if (answer.status !== 200 || typeof username !== 'string') throw new Error(`MAAS answered whoami with ${answer.status}: is LEDGER_MAAS_API_KEY right?`);
    this.user = username;
    return username;
  }

  /** A JSON list from MAAS (machines, devices), or an error naming what MAAS answered. */
  async list(path: string, query?: URLSearchParams): Promise<Record<string, unknown>[]> {
    const answer = await this.request({ method: 'GET', path, query });
    if (answer.status !== 200 || !Array.isArray(answer.json))
      throw new Error(`MAAS answered GET ${path} with ${answer.status}: ${String(answer.text ?? '').slice(0, 200)}`);
    return answer.json as Record<string, unknown>[];
  }
}
