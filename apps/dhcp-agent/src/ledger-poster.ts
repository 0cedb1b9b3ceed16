import { createLedgerClient, type LedgerApi } from '@ledger/client';
import type { LeaseObservation } from '@ledger/lease-files';
import { callLedger, untilAnswered, type LedgerAnswer } from './ledger-call';

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

/**
 * Posts lease records to the ledger as a source that follows its server, and does not
 * give up: an unreachable ledger, a 5xx, a 429 or a refused key are retried with backoff
 * until they go through or the agent stops (see callLedger). Re-posting is safe: the
 * ledger appends nothing for a record it already has. Only a record the ledger refuses as
 * bad input is dropped, by name, after the rest of its batch went through.
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

  /** Tries until the ledger answers 2xx or refuses the batch as bad input; resolves with that answer (rejects only when stopped). */
  private async untilAnswered(leases: LeaseObservation[], signal: AbortSignal): Promise<LedgerAnswer<{ position: number | null }>> {
    const answer = await untilAnswered(
      (correlationId) =>
        callLedger(
          this.api.POST('/v1/observations/leases', {
            body: { source: this.options.source, following: true, leases },
            headers: { 'x-correlation-id': correlationId },
            signal: AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs ?? 60_000)]),
          }),
          this.options.url,
          signal,
        ),
      (reason, delayMs, correlationId) => this.events.retrying(reason, delayMs, correlationId),
      signal,
    );
    if (answer.ok) this.events.posted(leases.length, answer.correlationId, answer.data?.position ?? null);
    return answer;
  }
}
