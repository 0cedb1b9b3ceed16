import type { RecordedEvent } from '../envelope';
import { lastPositionWhere } from '../last-position-where';

/** What both embedded stores offer: synchronous reads after a position. */
type ReadAfter = (afterPosition: number, maxCount: number) => RecordedEvent[];

/** Any number is a valid point to read from in SQLite: the first event at or after `position`. */
export const embeddedEventAtOrAfter = (readAfter: ReadAfter, position: number): RecordedEvent | null => {
  if (!Number.isSafeInteger(position) || position < 0) throw new RangeError(`position must be a non-negative integer, got ${String(position)}`);
  return readAfter(Math.max(0, position - 1), 1)[0] ?? null;
};

/**
 * Binary search over positions: log(head) one-row reads. Sound here because the embedded
 * store's one writer stamps `recorded_at` in position order (only a clock stepped back
 * breaks that; a replicated store must not assume it, see the EventStoreDB adapter).
 */
export const embeddedPositionAtTime = (readAfter: ReadAfter, head: number, time: Date): Promise<number> => {
  if (Number.isNaN(time.getTime())) throw new RangeError('time must be a valid Date');
  const limit = time.getTime();
  return lastPositionWhere((position) => embeddedEventAtOrAfter(readAfter, position), head, (event) => Date.parse(event.recordedAt) <= limit);
};
