import type { NewEvent, RecordedEvent } from '../envelope';
import type { EventStore } from '../event-store.port';
import { isConcurrencyError } from '../concurrency-error';
import { conflictRetryPolicy, RetriesExhaustedError, type RetryPolicy } from './retry-policy';
import { StreamStateCache } from './stream-state-cache';

/** What a decider refuses with: at least a code and a message (the domain's Refusal fits). */
export interface StreamRefusal {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Structurally the domain's Decider, so this lib does not depend on the domain. */
export interface StreamDecider<Command, Event, State, Reply, Refusal extends StreamRefusal = StreamRefusal> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): { outcome: 'accepted'; events: Event[]; reply: Reply } | { outcome: 'refused'; refusal: Refusal };
}

export type HandledCommand<State, Reply, Refusal> =
  { outcome: 'accepted'; reply: Reply; state: State; appended: number; position: number | null } | { outcome: 'refused'; refusal: Refusal; state: State };

export interface CommandHandlingOptions<Event extends { type: string; data: unknown }> {
  /** Wraps domain events in envelopes (ids, metadata). */
  toNewEvents(events: Event[]): NewEvent[];
  retryPolicy?: RetryPolicy;
  random?: () => number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one command against one stream: load (from the cache onwards), fold, decide,
 * append with the expected revision; on a revision conflict only, do it all again.
 * An append decided on the cached state skips the load (see decide).
 * (Named apart from Nest's CommandHandler: this is the loop under every use case, not one.)
 */
export class DeciderRunner<Command, Event extends { type: string; data: unknown }, State, Reply, Refusal extends StreamRefusal = StreamRefusal> {
  private readonly cache = new StreamStateCache<State>();

  constructor(
    private readonly store: EventStore,
    private readonly decider: StreamDecider<Command, Event, State, Reply, Refusal>,
  ) {}

  async handle(stream: string, command: Command, options: CommandHandlingOptions<Event>): Promise<HandledCommand<State, Reply, Refusal>> {
    const policy = options.retryPolicy ?? conflictRetryPolicy;
    const random = options.random ?? Math.random;
    let trustCache = true;
    for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
      if (attempt > 1) await sleep(policy.backoffMs(attempt, random));
      const { revision, state, decision, fromCache } = await this.decide(stream, command, trustCache);
      if (decision.outcome === 'refused') return { outcome: 'refused', refusal: decision.refusal, state };
      if (decision.events.length === 0) return { outcome: 'accepted', reply: decision.reply, state, appended: 0, position: null };
      try {
        const result = await this.store.appendToStream(stream, options.toNewEvents(decision.events), revision < 0 ? 'no_stream' : revision);
        const next = decision.events.reduce(this.decider.evolve, state);
        this.cache.set(stream, { revision: result.nextExpectedRevision, state: next });
        return { outcome: 'accepted', reply: decision.reply, state: next, appended: decision.events.length, position: result.position };
      } catch (error) {
        if (!isConcurrencyError(error)) throw error;
        // The cache was behind (another process, or another runner, appended): that is no
        // rival's conflict, so decide again at once on what is stored, not as a retry.
        if (fromCache) {
          trustCache = false;
          attempt -= 1;
        }
      }
    }
    throw new RetriesExhaustedError(stream, policy.maxAttempts);
  }

  /**
   * Decides on the cached state without reading the stream when that decision appends:
   * the append's expected revision then proves the cache current, or fails and the
   * command is decided again on what is stored. Saves a read of the stream per command.
   * Any other decision (a refusal, or nothing to append) is never checked by the store,
   * so it is made on the stream as stored.
   */
  private async decide(stream: string, command: Command, trustCache: boolean) {
    const cached = trustCache ? this.cache.get(stream) : undefined;
    if (cached) {
      const decision = this.decider.decide(command, cached.state);
      // Spelled out: a spread followed by new keys is a slow copy in V8, on every command.
      if (decision.outcome === 'accepted' && decision.events.length > 0) return { revision: cached.revision, state: cached.state, decision, fromCache: true };
    }
    const loaded = await this.load(stream);
    return { revision: loaded.revision, state: loaded.state, decision: this.decider.decide(command, loaded.state), fromCache: false };
  }

  /**
   * The stream's current state: the cached prefix plus whatever was appended since. With
   * `settled`, a cached prefix it holds for is answered without reading: for a caller that
   * asks about a fact no later event undoes (a node, once enlisted, stays enlisted).
   */
  async load(stream: string, settled?: (state: State) => boolean): Promise<{ revision: number; state: State }> {
    const known = this.cache.get(stream);
    if (known && settled?.(known.state)) return known;
    const cached = known ?? { revision: -1, state: this.decider.initialState() };
    const recorded = await this.store.readStream(stream, { fromRevision: cached.revision + 1 });
    if (recorded.length === 0) return cached;
    const state = recorded.reduce((acc, event: RecordedEvent) => this.decider.evolve(acc, { type: event.type, data: event.data } as Event), cached.state);
    const loaded = { revision: recorded[recorded.length - 1].revision, state };
    this.cache.set(stream, loaded);
    return loaded;
  }
}
