import { createLedgerClient, type LedgerApi } from '@ledger/client';
import type { LeaseObservation } from '@ledger/lease-files';
import { randomUUID } from 'node:crypto';
import { Backoff } from './backoff';

/** The ledger takes at most this many records per request. */
export const MAX_RECORDS_PER_POST = 5_000;

export interface PostOutcome {
  /** Records the ledger refused as bad input (400): logged and not sent again. */
  refused: { record: LeaseObservation; reason: string }[];
}

export interface PosterEvents {
  /** A post failed and will be tried again after `delayMs`. */
  retrying(reason: string, delayMs: number, correlationId: string): void;
  posted(count: number, correlationId: string, position: number | null): void;
}

type Answer = { ok: true; position: number | null } | { ok: false; retry: boolean; status: number; reason: string };

const messageOf = (body: unknown): string => {
  const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message.slice(0, 500) : JSON.stringify(body ?? null).slice(0, 200);
};

/**
 * Posts lease records to the ledger as a source that follows its server, and does not
 * give up: an unreachable ledger, a 5xx, a 429 or a refused key (401/403: the operator
 * fixes the key, the agent carries on) are retried with backoff, on a monotonic clock,
 * until they go through or the agent stops. Re-posting is safe: the ledger appends
 * nothing for a record it already has. Only a record the ledger refuses as bad input is
 * dropped, by name, after the rest of its batch went through.
 */
export class LedgerPoster {
  private readonly api: LedgerApi;

  constructor(
    private readonly options: { url: string; apiKey: string | null; source: string; timeoutMs?: number },
    private readonly events: PosterEvents,
  ) {
    this.api = createLedgerClient({ baseUrl: options.url, apiKey: options.apiKey });
  }

  async postAll(records: LeaseObservation[], signal: AbortSignal): Promise<PostOutcome> {
    const refused: PostOutcome['refused'] = [];
    for (let start = 0; start < records.length; start += MAX_RECORDS_PER_POST) {
      const batch = records.slice(start, start + MAX_RECORDS_PER_POST);
      const answer = await this.untilAnswered(batch, signal);
      if (answer.ok) continue;
      // One bad record must not hold back the others: each is sent alone, the refused ones named.
      for (const record of batch) {
        const alone = await this.untilAnswered([record], signal);
        if (!alone.ok) refused.push({ record, reason: alone.reason });
      }
    }
    return { refused };
  }

  /** Tries until the ledger answers 2xx or 400; resolves with that answer (rejects only when stopped). */
  private async untilAnswered(leases: LeaseObservation[], signal: AbortSignal): Promise<Answer> {
    const backoff = new Backoff();
    for (;;) {
      const correlationId = randomUUID();
      const answer = await this.once(leases, correlationId, signal);
      if (answer.ok) {
        this.events.posted(leases.length, correlationId, answer.position);
        return answer;
      }
      if (!answer.retry) return answer;
      const delayMs = backoff.next();
      this.events.retrying(answer.reason, delayMs, correlationId);
      await backoff.wait(delayMs, signal);
    }
  }

  private async once(leases: LeaseObservation[], correlationId: string, signal: AbortSignal): Promise<Answer> {
    signal.throwIfAborted();
    try {
      const { response, data, error } = await this.api.POST('/v1/observations/leases', {
        body: { source: this.options.source, following: true, leases },
        headers: { 'x-correlation-id': correlationId },
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs ?? 60_000)]),
      });
      if (response.ok) return { ok: true, position: data?.position ?? null };
      const status = response.status;
      const reason =
        status === 401 || status === 403
          ? `the ledger refuses the agent's key (${status}): give it a provider key with --key or LEDGER_API_KEY`
          : `the ledger answered ${status}: ${messageOf(error)}`;
      return { ok: false, retry: status !== 400, status, reason };
    } catch (error) {
      signal.throwIfAborted();
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return {
        ok: false,
        retry: true,
        status: 0,
        reason: `cannot reach the ledger at ${this.options.url} (${cause ?? (error instanceof Error ? error.message : String(error))})`,
      };
    }
  }
}
