import { Inject, Injectable } from '@nestjs/common';
import { Streams, type Refusal } from '@ledger/domain';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE, RANDOMNESS } from '../infrastructure/injection-tokens';
import type { Randomness } from '../infrastructure/randomness';
import { deterministicUuid } from './fingerprint';
import { toNewEvents } from './envelopes';
import { LedgerRefusal } from './ledger-refusal';
import type { RequestContext } from './request-context';

export interface RefusedCommand {
  command: string;
  nodeId: string | null;
  token: string | null;
  ip?: string | null;
  consumer?: { controller: string; model: string } | null;
}

/**
 * The one path of every refusal, whoever decided it (a decider, the acquire router,
 * the access guard): recorded here under one rule, then thrown as a LedgerRefusal for
 * the exception filter, the one place that maps refusals to HTTP.
 *
 * The rule: every refusal is appended, so an incident review shows who was turned away
 * and why, except bad input (`not_found`, `invalid_request`): that is not a decision,
 * and recording it would let arbitrary ids from the network create streams and grow the log. Refusals
 * go to streams of their own with no expected revision: a flood of them never contends
 * with a node's real decisions. A retried request (same requestId) reuses its event
 * id, so the store keeps one copy.
 */
@Injectable()
export class RefusalRecorder {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(RANDOMNESS) private readonly random: Randomness,
  ) {}

  /** Records the refusal (under the rule above) and throws it. */
  async refuse(refused: RefusedCommand, refusal: Refusal, context: RequestContext): Promise<never> {
    await this.record(refused, refusal, context);
    throw new LedgerRefusal(refusal);
  }

  /** Records without throwing: for callers that report the refusal themselves (the lease cascade skips it). */
  async record(refused: RefusedCommand, refusal: Refusal, context: RequestContext): Promise<void> {
    if (refusal.code === 'not_found' || refusal.code === 'invalid_request') return;
    const stream = Streams.refusals(refused.nodeId ?? refused.ip ?? 'ledger');
    const id = context.requestId ? deterministicUuid(`refusal:${context.requestId}:${refused.command}:${stream}`) : this.random.uuid();
    const event = {
      type: 'CommandRefused',
      data: {
        ...refused,
        ip: refused.ip ?? null,
        consumer: refused.consumer ?? null,
        code: refusal.code,
        reason: refusal.message,
        details: refusal.details ?? null,
      },
    };
    await this.store.appendToStream(
      stream,
      toNewEvents([event], context, () => id),
      'any',
    );
  }
}
