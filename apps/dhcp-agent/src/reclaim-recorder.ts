import { createLedgerClient, type LedgerApi } from '@ledger/client';
import type { Logger } from 'pino';
import { callLedger, untilAnswered } from './ledger-call';
import type { PendingReclaim } from './pending-reclaims';

/** What the ledger made of a reclaim: recorded (now or before), or refused for good (why). */
export type RecordOutcome = { recorded: true; position: number | null } | { recorded: false; reason: string };

/**
 * Records in the ledger a binding the agent deleted at its server (POST
 * /v1/leases/{ip}/reclaims), as the agent's key: the ledger says why the binding was an
 * orphan. Tried until the ledger answers, like every post of the agent; a refusal (the
 * lease is not one the ledger can tell this reclaim about) is final and logged by name.
 */
export class ReclaimRecorder {
  private readonly api: LedgerApi;

  constructor(
    private readonly options: { ledgerUrl: string; apiKey: string | null; source: string },
    private readonly log: Logger,
  ) {
    this.api = createLedgerClient({ baseUrl: options.ledgerUrl, apiKey: options.apiKey });
  }

  async record(entry: PendingReclaim, signal: AbortSignal): Promise<RecordOutcome> {
    const answer = await untilAnswered(
      (correlationId) =>
        callLedger(
          this.api.POST('/v1/leases/{ip}/reclaims', {
            params: { path: { ip: entry.ip } },
            body: { source: this.options.source, leaseId: entry.leaseId, mac: entry.mac },
            headers: { 'x-correlation-id': correlationId },
            signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]),
          }),
          this.options.ledgerUrl,
          signal,
          [400, 404, 409],
        ),
      (reason, retryInMs, correlationId) => this.log.warn({ ip: entry.ip, correlationId, retryInMs }, `cannot record a reclaim yet: ${reason}`),
      signal,
    );
    if (answer.ok) return { recorded: true, position: answer.data?.position ?? null };
    return { recorded: false, reason: answer.reason };
  }
}
