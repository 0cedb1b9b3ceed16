import type { EventStore, RecordedEvent } from '@ledger/event-store';
import { parseRfc3339Time } from '@ledger/domain';

/** A point in the log, as an operator names it: a global position or a moment. */
export type PointInLog = { position: number } | { time: Date };

/**
 * `at=` as the CLI takes it: digits are a global position, anything else an ISO-8601 time
 * (RFC 3339, or shorter: a date, a time without seconds or zone). The API takes only the
 * first two (isApiPointInLog).
 */
export const parsePointInLog = (raw: string): PointInLog | null => {
  if (/^[0-9]{1,15}$/.test(raw)) return { position: Number(raw) };
  const exact = parseRfc3339Time(raw);
  if (exact) return { time: exact };
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw)) return null;
  const time = new Date(raw);
  return Number.isNaN(time.getTime()) ? null : { time };
};

/** A point of the log as the API document states it: a global position (digits) or an RFC 3339 date-time. */
export const isApiPointInLog = (raw: unknown): raw is string => typeof raw === 'string' && (/^[0-9]{1,15}$/.test(raw) || parseRfc3339Time(raw) !== null);

export { lastPositionWhere } from '@ledger/event-store';

/** The first event at or after `position` (any number), or null: the store finds it its own way. */
export const eventAtOrAfter = (store: EventStore, position: number): Promise<RecordedEvent | null> => store.eventAtOrAfter(position);

/**
 * The last position recorded at or before `time` (0: before the first event), never past
 * `head` when given (the caller's view of the log). Each store answers its own way: the
 * embedded one by binary search, EventStoreDB by walking back from the end, since only
 * positions it returned may be sent to it and its recorded times may step back at a failover.
 */
export const positionAtTime = async (store: EventStore, time: Date, head?: number): Promise<number> => {
  const position = await store.positionAtTime(time);
  return head === undefined ? position : Math.min(position, head);
};
