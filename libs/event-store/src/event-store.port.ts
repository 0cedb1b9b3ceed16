import type { NewEvent, RecordedEvent } from './envelope';
import type { ExpectedRevision } from './expected-revision';

export interface AppendResult {
  /** Revision of the last event now in the stream (pass it as the next expected revision). */
  nextExpectedRevision: number;
  /** Global position of the last event appended. */
  position: number;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. 0 (default) reads from the start. */
  fromPosition?: number;
  /** At most this many events (default: adapter-chosen page, at least 1). */
  maxCount?: number;
}

/**
 * An ordered stream of recorded events: first everything after `fromPosition`
 * already in the store (catch-up), then each new event as it is appended (live).
 * Iterate with `for await`; `close()` ends the iteration.
 */
export interface AllSubscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
  /**
   * The events this subscription already holds after the last one it handed out, handed
   * out now without waiting (the iteration continues after them); empty when the next
   * would have to be read. Lets a follower fold a burst in one transaction. Optional:
   * an adapter without it hands out one event at a time.
   */
  takeReady?(): RecordedEvent[];
}

/**
 * The event store port. One contract test suite (./contract) holds every adapter to it.
 *
 * Guarantees an adapter must give:
 * - an append is atomic: all its events or none;
 * - `expectedRevision` is checked atomically with the write; on mismatch nothing is
 *   written and a ConcurrencyError is thrown;
 * - appending events whose ids are already stored, as the same stream and revisions,
 *   is a no-op that returns the original result (an idempotent retry);
 * - global positions are strictly increasing in append order and never reused;
 * - events are never updated or deleted.
 */
export interface EventStore {
  appendToStream(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /** All events of the stream from `fromRevision` (default 0); [] if the stream does not exist. */
  readStream(stream: string, options?: { fromRevision?: number }): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: { fromPosition?: number }): AllSubscription;
  /** Position of the newest event, 0 if the store is empty. */
  headPosition(): Promise<number>;
  /**
   * The first event at or after `position`, or null. `position` may be any non-negative
   * integer (an operator's `at=`), not only an event's own: each adapter finds the event its
   * own way, because on EventStoreDB only positions the server returned may be sent back
   * (they are log offsets; reading from another number fails).
   */
  eventAtOrAfter(position: number): Promise<RecordedEvent | null>;
  /**
   * Position of the last event, in log order, recorded at or before `time`; 0 if none.
   * On a replicated store `recordedAt` is each leader's clock and may step back at a
   * failover: adapters must not assume it grows with position unless their writer guarantees it.
   */
  positionAtTime(time: Date): Promise<number>;
  /**
   * Tells this handle's subscriptions now of every append it has acknowledged, and returns
   * the newest one's position (0 before any). Subscriptions hear of a commit a little after
   * its answer (the embedded store tells them after the answer; EventStoreDB's server pushes
   * it), so a read that must reflect every answer given calls this and waits for its
   * projection to reach that position. Without it, a read takes what is folded.
   */
  announceCommits?(): number;
  close(): Promise<void>;
}
