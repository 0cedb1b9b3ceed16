import { Inject, Injectable } from '@nestjs/common';
import { Streams, type Refusal } from '@ledger/domain';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE, RANDOMNESS } from '../infrastructure/injection-tokens';
import type { Randomness } from '../infrastructure/randomness';
import { deterministicUuid } from './fingerprint';
import { toNewEvents } from './envelopes';
import type { RequestContext } from './request-context';

export interface RefusedCommand {
  command: string;
  nodeId: string | null;
  token: string | null;
  ip?: string | null;
  consumer?: { controller: string; model: string } | null;
}

/**
 * Every refusal is itself appended, so an incident review shows who was turned away
 * and why. Refusals go to streams of their own with no expected revision: a flood of
 * them never contends with a node's real decisions. A retried request (same
 * requestId) reuses its event id, so the store keeps one copy.
 */
@Injectable()
export class RefusalRecorder {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(RANDOMNESS) private readonly random: Randomness,
  ) {}

  async record(refused: RefusedCommand, refusal: Refusal, context: RequestContext): Promise<void> {
    const stream = Streams.refusals(refused.nodeId ?? refused.ip ?? 'ledger');
    const id = context.requestId ? deterministicUuid(`refusal:${context.requestId}:${refused.command}:${stream}`) : this.random.uuid();
    const event = {
      type: 'CommandRefused',
      data: { ...refused, ip: refused.ip ?? null, consumer: refused.consumer ?? null, code: refusal.code, reason: refusal.message, details: refusal.details ?? null },
    };
    await this.store.appendToStream(stream, toNewEvents([event], context, () => id), 'any');
  }
}
