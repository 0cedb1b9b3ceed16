import { parsePointInLog, positionAtTime, lastPositionWhere, eventAtOrAfter, type PointInLog } from '@ledger/projections';
import type { EventStore } from '@ledger/event-store';
import { stringFlag } from './parse-args';
import { UsageError, type ParsedArgs } from './cli-command';

/** A --flag naming a point of the log: a global position (digits) or an ISO-8601 time. */
export const pointFlag = (args: ParsedArgs, name: string): PointInLog | undefined => {
  const raw = stringFlag(args, name);
  if (raw === undefined) return undefined;
  const point = parsePointInLog(raw);
  if (!point) throw new UsageError(`--${name} must be a global position or an ISO-8601 time (2025-01-01T12:00:00Z)`);
  return point;
};

/** The last position at or before the point (a time: the last event recorded by then). */
export const positionAtOrBefore = async (store: EventStore, point: PointInLog, head: number): Promise<number> =>
  'position' in point ? Math.min(point.position, head) : positionAtTime(store, point.time, head);

/** The first position at or after the point (a time: the first event recorded then or later). */
export const positionAtOrAfter = async (store: EventStore, point: PointInLog, head: number): Promise<number> => {
  if ('position' in point) return point.position;
  const limit = point.time.getTime();
  const before = await lastPositionWhere(
    (position) => eventAtOrAfter(store, position),
    head,
    (event) => Date.parse(event.recordedAt) < limit,
  );
  return before + 1;
};
