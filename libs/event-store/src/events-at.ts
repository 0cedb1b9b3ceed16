import type { RecordedEvent } from './envelope';
import type { EventStore } from './event-store.port';

/** A store that reads many events by their positions in one query (the embedded stores). */
export interface ReadsByPosition {
  /** The events at these positions, in log order; a position that holds no event is left out. */
  eventsAt(positions: readonly number[]): Promise<RecordedEvent[]>;
}

/** Reads a store answers at once without eventsAt (EventStoreDB: one call each, so a page of a thousand is not a thousand calls at once). */
const READS_AT_ONCE = 32;

const oneReadEach = async (store: EventStore, positions: readonly number[]): Promise<RecordedEvent[]> => {
  const found: RecordedEvent[] = [];
  for (let from = 0; from < positions.length; from += READS_AT_ONCE) {
    const events = await Promise.all(positions.slice(from, from + READS_AT_ONCE).map((position) => store.eventAtOrAfter(position)));
    for (const event of events) if (event !== null) found.push(event);
  }
  return found;
};

const readsByPosition = (store: EventStore): ReadsByPosition | null => (hasEventsAt(store) ? store : null);

const hasEventsAt = (store: EventStore): store is EventStore & ReadsByPosition => 'eventsAt' in store && typeof store.eventsAt === 'function';

/**
 * The events at `positions` (each one an event's own, as the log handed it out), in the
 * order given: one query where the store reads by position, else eventAtOrAfter each (on
 * EventStoreDB only positions it returned may be sent back, and these are). A position
 * the log does not hold is an error: whatever listed it was not made from this log.
 */
export const eventsAt = async (store: EventStore, positions: readonly number[]): Promise<RecordedEvent[]> => {
  if (positions.length === 0) return [];
  const byPosition = readsByPosition(store);
  const found = byPosition ? await byPosition.eventsAt(positions) : await oneReadEach(store, positions);
  const at = new Map(found.map((event) => [event.position, event]));
  return positions.map((position) => {
    const event = at.get(position);
    if (!event) throw new Error(`the log holds no event at position ${position}: the read models were not built from this log`);
    return event;
  });
};
