import { BACKWARDS, ErrorType, EventStoreDBClient, FORWARDS, isCommandError } from '@eventstore/db-client';
import type { AllStreamResolvedEvent, AppendResult as ClientAppendResult, ReadPosition } from '@eventstore/db-client';
import type { NewEvent, RecordedEvent } from '../envelope';
import type { AllSubscription, AppendResult, EventStore, ReadAllOptions } from '../event-store.port';
import type { ExpectedRevision } from '../expected-revision';
import { ConcurrencyError } from '../concurrency-error';
import { EventStoreDbAllSubscription } from './all-subscription';
import { findEventAtOrAfter, findHeadPosition, findPositionAtTime, readAllAfter } from './all-stream-paging';
import type { ForeignEvent, ForeignEventHandler } from './foreign-events';
import { InvalidConnectionStringError, redactConnectionString, scrubPassword, validateConnectionString } from './connection-string';
import { withoutClientDebugOutput } from './client-debug-output';
import { InvalidEventError, toEventData, toRecordedEvent } from './event.mapping';
import { fromClientCurrentRevision, requireRevision, revisionFromBigInt, toClientExpectedRevision } from './expected-revision.mapping';
import { decodePosition, encodePosition } from './position.codec';
import { requireStreamName } from './stream-name';
import { systemEventsFilter } from './system-events';
import { translateAppendError } from './wrong-expected-version.mapping';

/** Events per readAll call when the caller does not say. */
export const DEFAULT_READ_ALL_COUNT = 500;
/** Entries of $all fetched per round trip while skipping EventStoreDB's own events. */
const ALL_PAGE_SIZE = 500;
/** ...but not fewer than this, so a small maxCount does not crawl through system events 2 at a time. */
const MIN_PAGE_SIZE = 32;

/**
 * The EventStore port on EventStoreDB 22.6 or later (the first to report positions on stream
 * reads; 22.10 LTS or newer advised) or KurrentDB, through @eventstore/db-client.
 * It translates; it decides nothing:
 * - expected revisions are checked by the server, atomically with the write, on the leader;
 * - retrying an append with the same event ids and expected revision is a no-op in the
 *   server, which answers with the original revision and position (see appendToStream);
 * - global positions are the events' log offsets (position.codec.ts).
 */
export interface EventStoreDbOptions {
  /** Told of each event in $all the ledger did not write, as it is skipped (log it as a warning). */
  onForeignEvent?: (event: ForeignEvent) => void;
}

export class EventStoreDbEventStore implements EventStore {
  private readonly subscriptions = new Set<EventStoreDbAllSubscription>();
  private closing: Promise<void> | undefined;
  private foreignSkipped = 0;
  /** The newest position this handle's appends were acknowledged at (announceCommits). */
  private acknowledged = 0;
  private readonly onForeign: ForeignEventHandler;

  private constructor(
    private readonly client: EventStoreDBClient,
    options: EventStoreDbOptions = {},
  ) {
    this.onForeign = (event) => {
      this.foreignSkipped += 1;
      options.onForeignEvent?.(event);
    };
  }

  /** Events in $all not written by the ledger, skipped so far by reads and subscriptions (a metric). */
  get foreignEventsSkipped(): number {
    return this.foreignSkipped;
  }

  /**
   * Validates the connection string and creates the client. No network I/O happens here:
   * the connection is opened by the first call, which is where an unreachable server shows.
   */
  static async connect(connectionString: string, options: EventStoreDbOptions = {}): Promise<EventStoreDbEventStore> {
    const valid = validateConnectionString(connectionString);
    try {
      return new EventStoreDbEventStore(
        withoutClientDebugOutput(() => EventStoreDBClient.connectionString(valid)),
        options,
      );
    } catch (error) {
      throw new InvalidConnectionStringError(
        `EventStoreDB connection string rejected by the client (${scrubPassword((error as Error).message, valid)}): ${redactConnectionString(valid)}`,
      );
    }
  }

  /**
   * Atomic, checked append. On an idempotent retry (same ids, same stream and expected
   * revision) EventStoreDB writes nothing and answers with the revision of the retried batch's
   * last event and, on current servers, its log position; when a server omits the position
   * it is read back from the stream, so the result equals the original append's either way.
   * The server guarantees this for 'no_stream' and exact revisions (it checks the stored ids);
   * for 'any' and 'stream_exists' only while the ids are in its recent-writes cache.
   */
  async appendToStream(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    this.requireOpen();
    requireStreamName(stream);
    if (!Array.isArray(events) || events.length === 0) {
      throw new InvalidEventError(`append to ${stream}: at least one event is needed`);
    }
    const eventData = events.map(toEventData);
    if (new Set(events.map((event) => event.id)).size !== events.length) {
      throw new InvalidEventError(`append to ${stream}: event ids must be distinct`);
    }
    const clientExpected = toClientExpectedRevision(expectedRevision);
    let result: ClientAppendResult;
    try {
      result = await this.client.appendToStream(stream, eventData, { expectedRevision: clientExpected });
    } catch (error) {
      throw translateAppendError(error, stream, expectedRevision);
    }
    if (!result.success) {
      // Only reachable with throwOnAppendFailure=false, which connect() refuses; kept as a guard.
      throw new ConcurrencyError(stream, expectedRevision, fromClientCurrentRevision(result.nextExpectedRevision));
    }
    const nextExpectedRevision = revisionFromBigInt(result.nextExpectedRevision);
    const position = result.position ? encodePosition(result.position) : await this.positionOfRevision(stream, nextExpectedRevision);
    this.acknowledged = Math.max(this.acknowledged, position);
    return { nextExpectedRevision, position };
  }

  /**
   * The newest position an append of this handle was acknowledged at (0 before any): a read
   * that must reflect every answer given waits for its projection to reach it. The server
   * tells subscriptions of commits itself, so there is nothing to announce.
   */
  announceCommits(): number {
    return this.acknowledged;
  }

  async readStream(stream: string, options: { fromRevision?: number } = {}): Promise<RecordedEvent[]> {
    this.requireOpen();
    requireStreamName(stream);
    const fromRevision = requireRevision(options.fromRevision ?? 0, 'fromRevision');
    const events: RecordedEvent[] = [];
    try {
      // From the leader: a command folds this stream to decide, and a lagging follower's
      // answer would only make its append conflict again and again.
      for await (const resolved of this.client.readStream(stream, {
        fromRevision: BigInt(fromRevision),
        direction: FORWARDS,
        requiresLeader: true,
      })) {
        if (resolved.event !== undefined) events.push(toRecordedEvent(resolved.event));
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.requireOpen();
    const maxCount = options.maxCount ?? DEFAULT_READ_ALL_COUNT;
    if (!Number.isSafeInteger(maxCount) || maxCount < 1) {
      throw new RangeError(`maxCount must be a positive integer, got ${String(maxCount)}`);
    }
    return readAllAfter(
      (from, count) => this.readAllPage(from, count, FORWARDS),
      options.fromPosition ?? 0,
      maxCount,
      Math.min(ALL_PAGE_SIZE, Math.max(maxCount + 1, MIN_PAGE_SIZE)),
      this.onForeign,
    );
  }

  subscribeToAll(options: { fromPosition?: number } = {}): AllSubscription {
    this.requireOpen();
    const fromPosition = decodePosition(options.fromPosition ?? 0);
    const source = this.client.subscribeToAll({ fromPosition, filter: systemEventsFilter() });
    const subscription = new EventStoreDbAllSubscription(
      source,
      typeof fromPosition === 'string' ? undefined : fromPosition,
      (closed) => this.subscriptions.delete(closed),
      this.onForeign,
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<number> {
    this.requireOpen();
    // From the leader: a model release and minPosition checks wait for this head, and a
    // follower's could miss an allocation made just before.
    return findHeadPosition((from, count) => this.readAllPage(from, count, BACKWARDS, true), ALL_PAGE_SIZE, this.onForeign);
  }

  /** Walks back from the end of $all: no computed position is ever sent (all-stream-paging.ts). */
  async eventAtOrAfter(position: number): Promise<RecordedEvent | null> {
    this.requireOpen();
    if (!Number.isSafeInteger(position) || position < 0) {
      throw new RangeError(`position must be a non-negative integer, got ${String(position)}`);
    }
    return findEventAtOrAfter(this.readBackwards, ALL_PAGE_SIZE, this.onForeign, position);
  }

  /** Walks back from the end of $all; does not assume recordedAt grows with position (failovers). */
  async positionAtTime(time: Date): Promise<number> {
    this.requireOpen();
    if (Number.isNaN(time.getTime())) throw new RangeError('time must be a valid Date');
    return findPositionAtTime(this.readBackwards, ALL_PAGE_SIZE, this.onForeign, time);
  }

  private readonly readBackwards = (from: ReadPosition, count: number) => this.readAllPage(from, count, BACKWARDS);

  /** Ends every open subscription, then the client. Safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
      await this.client.dispose();
    })();
    return this.closing;
  }

  private async readAllPage(
    fromPosition: ReadPosition,
    maxCount: number,
    direction: typeof FORWARDS | typeof BACKWARDS,
    requiresLeader = false,
  ): Promise<AllStreamResolvedEvent[]> {
    const page: AllStreamResolvedEvent[] = [];
    for await (const resolved of this.client.readAll({ fromPosition, maxCount, direction, requiresLeader })) page.push(resolved);
    return page;
  }

  /** The position of the event at `revision`, for append results that came without one. */
  private async positionOfRevision(stream: string, revision: number): Promise<number> {
    // Read-your-write: only the leader is sure to have the event already.
    const read = this.client.readStream(stream, { fromRevision: BigInt(revision), maxCount: 1, requiresLeader: true });
    for await (const resolved of read) {
      if (resolved.event !== undefined) return toRecordedEvent(resolved.event).position;
    }
    throw new Error(`stream ${stream}: no event at revision ${revision} right after appending it`);
  }

  private requireOpen(): void {
    if (this.closing !== undefined) throw new Error('EventStoreDB event store is closed');
  }
}

function isStreamNotFound(error: unknown): boolean {
  return error instanceof Error && isCommandError(error) && error.type === ErrorType.STREAM_NOT_FOUND;
}
