import { createLedgerClient, type LedgerApi } from '@ledger/client';
import type { LeaseObservation } from '@ledger/lease-files';

/** The ledger's answer to `POST /v1/observations/leases`. */
export type LeaseVerdict = 'valid' | 'orphaned' | 'released' | 'unknown';
export interface LeaseVerdictResult {
  ip: string;
  mac: string;
  verdict: LeaseVerdict;
  reason: string;
  token?: string;
  deviceId?: string;
}
export interface LeaseObservationsResponse {
  source: string;
  received: number;
  results: LeaseVerdictResult[];
  summary: Record<LeaseVerdict, number>;
  position: number;
}

/** The ledger answered, but not with a 2xx. */
export class LedgerHttpError extends Error {
  override readonly name = 'LedgerHttpError';
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const message =
      body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
        ? (body as { message: string }).message
        : JSON.stringify(body);
    super(`the ledger answered ${status}: ${message}`);
  }
}

/** The ledger's answer when its disk cannot take a write (503 `storage_full`, `storage_read_only`, ...): the code, or null. */
export const storageFaultCode = (error: unknown): string | null => {
  if (!(error instanceof LedgerHttpError) || error.status !== 503) return null;
  const code = (error.body as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^storage_[a-z_]{1,40}$/.test(code) ? code : null;
};

/** The ledger could not be reached at all. */
export class LedgerUnreachable extends Error {
  override readonly name = 'LedgerUnreachable';
}

export interface LeaseObservationsClientOptions {
  url: string;
  source: string;
  /** Sent as `Authorization: Bearer <key>` when set. */
  apiKey?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Waits before retrying a request whose connection failed; re-posting is safe (the endpoint is idempotent). */
  retryDelaysMs?: number[];
  /** How many times to wait out a 429 (the key's rate limit) before giving up. */
  rateLimitRetries?: number;
  /** How many times to wait out a 503 storage fault (the ledger's disk full or read-only) before giving up. */
  storageRetries?: number;
  sleep?: (ms: number) => Promise<void>;
}

const describeCause = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
};

/** `Retry-After` in seconds (or an HTTP date), kept between a tenth of a second and half a minute. */
export const retryAfterMs = (header: string | null): number => {
  const seconds = header === null ? NaN : /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.min(30_000, Math.max(100, seconds * 1000)) : 1000;
};

/** Posts batches of lease records to the ledger, one request at a time, through the typed client. */
export class LeaseObservationsClient {
  private readonly endpoint: string;
  private readonly api: LedgerApi;

  constructor(private readonly options: LeaseObservationsClientOptions) {
    // The path is appended to the URL's, so a ledger behind a path prefix (http://proxy/ledger) works too.
    this.endpoint = `${options.url.replace(/\/+$/, '')}/v1/observations/leases`;
    this.api = createLedgerClient({ baseUrl: options.url, apiKey: options.apiKey, fetch: options.fetch });
  }

  async post(leases: LeaseObservation[]): Promise<LeaseObservationsResponse> {
    const delays = this.options.retryDelaysMs ?? [250, 1000];
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    let rateLimited = 0;
    let storageFaults = 0;
    for (let attempt = 0; ; attempt++) {
      let answer: Awaited<ReturnType<LedgerApi['POST']>>;
      try {
        answer = await this.api.POST('/v1/observations/leases', {
          body: { source: this.options.source, leases },
          headers: { accept: 'application/json' },
          parseAs: 'text',
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 120_000),
        });
      } catch (error) {
        if (attempt < delays.length) {
          await sleep(delays[attempt]);
          continue;
        }
        throw new LedgerUnreachable(`cannot reach the ledger at ${this.endpoint}: ${describeCause(error)}`);
      }
      const { response } = answer;
      if (response.status === 429 && rateLimited++ < (this.options.rateLimitRetries ?? 5)) {
        attempt--;
        await sleep(retryAfterMs(response.headers.get('retry-after')));
        continue;
      }
      // Text, not the client's JSON parse: a proxy's HTML page must be reported, not thrown as a SyntaxError.
      // An error answer falls through to the storage-fault retries and the error below.
      const raw: unknown = response.ok ? answer.data : answer.error;
      const text = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : JSON.stringify(raw);
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: reported below
      }
      if (!response.ok) {
        const error = new LedgerHttpError(response.status, body);
        // A full or read-only disk is the ledger's passing condition: nothing was written, the same batch is posted again.
        if (storageFaultCode(error) && storageFaults++ < (this.options.storageRetries ?? 3)) {
          attempt--;
          await sleep(retryAfterMs(response.headers.get('retry-after')));
          continue;
        }
        throw error;
      }
      if (!body || typeof body !== 'object' || !Array.isArray((body as LeaseObservationsResponse).results)) {
        throw new LedgerHttpError(response.status, { message: `unexpected answer: ${text.slice(0, 200)}` });
      }
      return body as LeaseObservationsResponse;
    }
  }
}
