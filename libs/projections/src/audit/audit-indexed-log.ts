import {
  eventsAt,
  type AllSubscription,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type ReadsByPosition,
} from '@ledger/event-store';
import type { AuditIndexPoints } from './audit-index-points';

/** Lookups a store without reads by position answers at once (EventStoreDB: one read each). */
const READS_AT_ONCE = 32;

/**
 * The log as time travel and audit queries read it: the store itself, but positions by time
 * and events by position found through the audit index (AuditIndexPoints), so each costs a
 * bounded number of the store's reads instead of a walk back from the end of $all.
 */
export class AuditIndexedLog implements EventStore, ReadsByPosition {
  constructor(
    private readonly store: EventStore,
    private readonly points: AuditIndexPoints,
  ) {}

  appendToStream(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    return this.store.appendToStream(stream, events, expectedRevision);
  }

  readStream(stream: string, options?: { fromRevision?: number }): Promise<RecordedEvent[]> {
    return this.store.readStream(stream, options);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.store.readAll(options);
  }

  subscribeToAll(options?: { fromPosition?: number }): AllSubscription {
    return this.store.subscribeToAll(options);
  }

  headPosition(): Promise<number> {
    return this.store.headPosition();
  }

  eventAtOrAfter(position: number): Promise<RecordedEvent | null> {
    return this.points.eventAtOrAfter(position);
  }

  positionAtTime(time: Date): Promise<number> {
    return this.points.positionAtTime(time);
  }

  announceCommits(): number {
    return this.store.announceCommits?.() ?? 0;
  }

  /** In one query where the store reads by position (the embedded one), else each through the index. */
  async eventsAt(positions: readonly number[]): Promise<RecordedEvent[]> {
    if (typeof (this.store as Partial<ReadsByPosition>).eventsAt === 'function') return eventsAt(this.store, positions);
    const found: RecordedEvent[] = [];
    for (let from = 0; from < positions.length; from += READS_AT_ONCE) {
      const events = await Promise.all(positions.slice(from, from + READS_AT_ONCE).map((position) => this.points.eventAtOrAfter(position)));
      for (const event of events) if (event !== null) found.push(event);
    }
    return found;
  }

  /** The store belongs to whoever opened it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
