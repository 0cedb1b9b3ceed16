import { END } from '@eventstore/db-client';
import type { AllStreamResolvedEvent, Position, ReadPosition } from '@eventstore/db-client';
import type { RecordedEvent } from '../envelope';
import { toRecordedEvent } from './event.mapping';
import { decodePosition, encodePosition, isAfter, isBefore } from './position.codec';
import { isSystemEvent } from './system-events';

/** Reads up to `maxCount` entries of $all from `from`, in one direction, system events included. */
export type AllPageReader = (from: ReadPosition, maxCount: number) => Promise<AllStreamResolvedEvent[]>;

/**
 * The client's readAll has no server-side filter (v6 sends "no filter"), so $all is read in
 * pages and EventStoreDB's own events are dropped here. Paging rests on the raw
 * {commit, prepare} positions of everything read, system events included, so it never has
 * to give a system event a numeric position.
 */

/**
 * Up to `maxCount` ledger events strictly after `after` (0: from the start), in $all order.
 * Forward reads are inclusive of their start, so each page after the first repeats the
 * previous page's last entry; it is recognised by position and skipped. A page shorter than
 * asked for means the end of $all was reached.
 */
export async function readAllAfter(readForwards: AllPageReader, after: number, maxCount: number, pageSize: number): Promise<RecordedEvent[]> {
  requirePageSize(pageSize);
  const events: RecordedEvent[] = [];
  let from = decodePosition(after);
  let last: Position | undefined = typeof from === 'string' ? undefined : from;
  while (events.length < maxCount) {
    const page = await readForwards(from, pageSize);
    let advanced = false;
    for (const { event } of page) {
      if (event === undefined || !isAfter(event.position, last)) continue;
      last = event.position;
      advanced = true;
      if (isSystemEvent(event)) continue;
      events.push(toRecordedEvent(event));
      if (events.length === maxCount) break;
    }
    if (page.length < pageSize || !advanced || last === undefined) break;
    from = last;
  }
  return events;
}

/**
 * Position of the newest ledger event, 0 if there is none: $all read backwards from its end
 * until the first event that is not EventStoreDB's own. Backward reads exclude their start,
 * and the position check makes that a guarantee here too.
 */
export async function findHeadPosition(readBackwards: AllPageReader, pageSize: number): Promise<number> {
  requirePageSize(pageSize);
  let from: ReadPosition = END;
  let last: Position | undefined;
  for (;;) {
    const page = await readBackwards(from, pageSize);
    let advanced = false;
    for (const { event } of page) {
      if (event === undefined || !isBefore(event.position, last)) continue;
      last = event.position;
      advanced = true;
      if (!isSystemEvent(event)) return encodePosition(event.position);
    }
    if (page.length < pageSize || !advanced || last === undefined) return 0;
    from = last;
  }
}

function requirePageSize(pageSize: number): void {
  // One entry of every page after the first may be the previous page's last: 2 guarantees progress.
  if (!Number.isSafeInteger(pageSize) || pageSize < 2) {
    throw new RangeError(`page size must be an integer of at least 2, got ${String(pageSize)}`);
  }
}
