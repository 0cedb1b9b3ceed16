import type { EventStore, RecordedEvent } from '@ledger/event-store';

/** A point in the log, as an operator names it: a global position or a moment. */
export type PointInLog = { position: number } | { time: Date };

/** `at=` as the API and the CLI take it: digits are a global position, anything else an ISO-8601 time. */
export const parsePointInLog = (raw: string): PointInLog | null => {
  if (/^[0-9]{1,15}$/.test(raw)) return { position: Number(raw) };
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw)) return null;
  const time = new Date(raw);
  return Number.isNaN(time.getTime()) ? null : { time };
};

/** The first event at or after `position`, or null. */
export const eventAtOrAfter = async (store: EventStore, position: number): Promise<RecordedEvent | null> =>
  (await store.readAll({ fromPosition: Math.max(0, position - 1), maxCount: 1 }))[0] ?? null;

/**
 * The last position whose event satisfies `holds` (0 if none does), for a predicate that
 * is true up to some point of the log and false after it. Binary search over positions,
 * gaps included: `firstAtOrAfter(p)` gives the first event at or after p.
 */
export const lastPositionWhere = async <E extends { position: number }>(
  firstAtOrAfter: (position: number) => E | null | Promise<E | null>,
  head: number,
  holds: (event: E) => boolean,
): Promise<number> => {
  let low = 0;
  let high = head;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const event = await firstAtOrAfter(middle);
    if (event && event.position <= high && holds(event)) low = event.position;
    else high = middle - 1;
  }
  return low;
};

/**
 * The last position recorded at or before `time` (0: before the first event): log(head)
 * reads of one event each, on any store. The store stamps `recordedAt` while it holds
 * the write lock, so recorded times follow positions unless the clock is stepped back.
 */
export const positionAtTime = async (store: EventStore, time: Date, head?: number): Promise<number> => {
  const limit = time.getTime();
  return lastPositionWhere(
    (position) => eventAtOrAfter(store, position),
    head ?? (await store.headPosition()),
    (event) => Date.parse(event.recordedAt) <= limit,
  );
};
