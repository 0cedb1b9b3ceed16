import { Inject, Injectable } from '@nestjs/common';
import { Streams, type Refusal } from '@ledger/domain';
import { isConcurrencyError, StreamStateCache, type EventStore } from '@ledger/event-store';
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

/** Conflicts with concurrent refusals of the same subject before giving up (each one means another was written). */
const MAX_ATTEMPTS = 50;

/**
 * The one path of every refusal, whoever decided it (a decider, the acquire router,
 * the access guard): recorded here under one rule, then thrown as a LedgerRefusal for
 * the exception filter, the one place that maps refusals to HTTP.
 *
 * The rule: every refusal is appended, so an incident review shows who was turned away
 * and why, except bad input (`not_found`, `invalid_request`): that is not a decision,
 * and recording it would let arbitrary ids from the network create streams and grow the log.
 * Refusals go to streams of their own: a flood of them never contends with a node's real
 * decisions.
 *
 * A retried request (same requestId) reuses its event id and must leave one copy on both
 * stores. An append with `any` does not ensure that on EventStoreDB (it deduplicates `any`
 * only through a recent-writes cache lost on restart, and event ids are not unique across
 * streams), so a request with a requestId checks the stream for its id and appends with the
 * exact revision it read: a concurrent copy makes the append conflict, and the re-read finds
 * it. Ids seen are cached per stream, so each check reads only the events since the last.
 * A request without a requestId has no retry identity: it appends with `any`.
 */
@Injectable()
export class RefusalRecorder {
  /** Per refusals stream: the ids stored up to a revision, each with its global position. */
  private readonly seen = new StreamStateCache<Map<string, number>>(1_000);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(RANDOMNESS) private readonly random: Randomness,
  ) {}

  /**
   * Records the refusal (under the rule above) and throws it, with the position of the
   * CommandRefused event: the answer carries it, so `minPosition` works on refusals too.
   */
  async refuse(refused: RefusedCommand, refusal: Refusal, context: RequestContext): Promise<never> {
    const position = await this.record(refused, refusal, context);
    throw new LedgerRefusal(refusal, position);
  }

  /**
   * Records without throwing: for callers that report the refusal themselves (the lease
   * cascade skips it). Returns the recorded event's position (a retried request's: the first
   * try's), null when the refusal is not recorded.
   */
  async record(refused: RefusedCommand, refusal: Refusal, context: RequestContext): Promise<number | null> {
    if (refusal.code === 'not_found' || refusal.code === 'invalid_request') return null;
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
    const events = toNewEvents([event], context, () => id);
    if (!context.requestId) return (await this.store.appendToStream(stream, events, 'any')).position;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const { revision, state: ids } = await this.idsIn(stream);
      const recorded = ids.get(id);
      if (recorded !== undefined) return recorded; // the first try of this request was recorded
      try {
        const result = await this.store.appendToStream(stream, events, revision < 0 ? 'no_stream' : revision);
        this.seen.set(stream, { revision: result.nextExpectedRevision, state: ids.set(id, result.position) });
        return result.position;
      } catch (error) {
        if (!isConcurrencyError(error)) throw error;
      }
    }
    throw new Error(`${stream}: refusal not recorded, still conflicting after ${MAX_ATTEMPTS} attempts`);
  }

  private async idsIn(stream: string): Promise<{ revision: number; state: Map<string, number> }> {
    const cached = this.seen.get(stream) ?? { revision: -1, state: new Map<string, number>() };
    const newer = await this.store.readStream(stream, { fromRevision: cached.revision + 1 });
    if (newer.length === 0) return cached;
    for (const event of newer) cached.state.set(event.id, event.position);
    const entry = { revision: newer[newer.length - 1].revision, state: cached.state };
    this.seen.set(stream, entry);
    return entry;
  }
}
