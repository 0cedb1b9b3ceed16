import { END } from '@eventstore/db-client';
import type { AllStreamResolvedEvent, Position, ReadPosition } from '@eventstore/db-client';
import type { RecordedEvent } from '../envelope';
import { ledgerEventOf, type ForeignEventHandler } from './foreign-events';
import { decodePosition, isAfter, isBefore } from './position.codec';

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
export async function readAllAfter(
  readForwards: AllPageReader,
  after: number,
  maxCount: number,
  pageSize: number,
  onForeign: ForeignEventHandler,
): Promise<RecordedEvent[]> {
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
      const ledgerEvent = ledgerEventOf(event, onForeign);
      if (ledgerEvent === null) continue;
      events.push(ledgerEvent);
      if (events.length === maxCount) break;
    }
    if (page.length < pageSize || !advanced || last === undefined) break;
    from = last;
  }
  return events;
}

/**
 * Visits ledger events from the end of $all backwards, newest first, until `visit` returns
 * true or the start is reached. Every read starts at END or at a position the server itself
 * returned: EventStoreDB positions are log offsets, and reading from any other number fails
 * on the server, so no position is ever computed here. Backward reads exclude their start,
 * and the position check makes that a guarantee here too.
 */
export async function walkBackwards(
  readBackwards: AllPageReader,
  pageSize: number,
  onForeign: ForeignEventHandler,
  visit: (event: RecordedEvent) => boolean,
): Promise<void> {
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
      const ledgerEvent = ledgerEventOf(event, onForeign);
      if (ledgerEvent !== null && visit(ledgerEvent)) return;
    }
    if (page.length < pageSize || !advanced || last === undefined) return;
    from = last;
  }
}

/** Position of the newest ledger event, 0 if there is none. */
export async function findHeadPosition(readBackwards: AllPageReader, pageSize: number, onForeign: ForeignEventHandler): Promise<number> {
  let head = 0;
  await walkBackwards(readBackwards, pageSize, onForeign, (event) => ((head = event.position), true));
  return head;
}

/**
 * The first ledger event at or after `position` (any number, not only an event's own), or
 * null: walks back from the end while events are at or after it. Costs a read per page of
 * events after `position`, so it suits points near the end of the log.
 */
export async function findEventAtOrAfter(
  readBackwards: AllPageReader,
  pageSize: number,
  onForeign: ForeignEventHandler,
  position: number,
): Promise<RecordedEvent | null> {
  let found: RecordedEvent | null = null;
  await walkBackwards(readBackwards, pageSize, onForeign, (event) => {
    if (event.position < position) return true;
    found = event;
    return false;
  });
  return found;
}

/**
 * Position of the newest ledger event recorded at or before `time`, 0 if none. `recordedAt`
 * is the clock of whichever node led when the event was written, so after a failover it may
 * step back: nothing here assumes it grows with position (no binary search). The answer is
 * the last event in log order whose time is at or before `time`.
 */
export async function findPositionAtTime(
  readBackwards: AllPageReader,
  pageSize: number,
  onForeign: ForeignEventHandler,
  time: Date,
): Promise<number> {
  const limit = time.getTime();
  let found = 0;
  await walkBackwards(readBackwards, pageSize, onForeign, (event) => {
    if (Date.parse(event.recordedAt) > limit) return false;
    found = event.position;
    return true;
  });
  return found;
}

function requirePageSize(pageSize: number): void {
  // One entry of every page after the first may be the previous page's last: 2 guarantees progress.
  if (!Number.isSafeInteger(pageSize) || pageSize < 2) {
    throw new RangeError(`page size must be an integer of at least 2, got ${String(pageSize)}`);
  }
}
