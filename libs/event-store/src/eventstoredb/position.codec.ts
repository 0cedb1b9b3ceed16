import { START } from '@eventstore/db-client';
import type { Position, ReadPosition } from '@eventstore/db-client';

/**
 * EventStoreDB $all positions <-> the port's numeric global position.
 *
 * What a position is. The server's transaction log is a byte-addressed file; a $all
 * position is {commit, prepare}: the log offset of the record that committed the event
 * and the log offset of the record that holds the event itself ($all is ordered by
 * commit, then prepare).
 *
 * What a gRPC append writes (EventStoreDB 20+ and KurrentDB; StorageWriterService.WritePrepares):
 * one prepare record per event, each flagged IsCommitted ("self-committed": no separate
 * commit record), written back to back in one chunk, atomically. Each event therefore has
 * its own log offset L, and the server reports its position as {commit: L, prepare: L}
 * - on $all reads and subscriptions (AllReader: CommitEventRecord(event, event.LogPosition)),
 * - on stream reads from 22.6 on (ResolvedEvent: a self-committed event is TFPos(L, L)),
 * - in the append result: the LogPosition of the append's last prepare (StorageChaser's
 *   CommitAck), i.e. the position of the last event appended; on an idempotent retry, the
 *   log position of the retried batch's last event (IndexWriter.CheckCommit), or none on
 *   servers that do not report it (see the adapter: it then reads the event's position).
 * So commit == prepare for every event this ledger writes; events of one append are NOT
 * given a shared position: each has its own, in append order.
 *
 * The mapping. position = commit (= prepare). It is
 * - unique per event and strictly increasing in $all order (distinct records have distinct
 *   offsets, and $all order is log order for self-committed records);
 * - never 0 for an event: offset 0 of a database holds the first epoch record (a system
 *   record), so 0 is free to mean "before the first event";
 * - resumable: decodePosition(p) gives {commit: p, prepare: p}, which is exactly the event's
 *   own position. Reading $all forwards from it includes that event (the read is
 *   inclusive), subscribing from it excludes it (the subscription starts after it); the
 *   adapter drops everything at or before p in both cases (isAfter), so a resume gives
 *   exactly the events after p: exclusive start, no gap, no duplicate.
 * A position with commit != prepare can only come from a legacy explicit transaction
 * (TCP client API, never written by this ledger); it has no faithful single number, so
 * encodePosition refuses it instead of guessing.
 *
 * The limit. A JS number holds integers exactly up to 2^53 - 1, so positions are exact
 * for the first 2^53 bytes (8 PiB) of transaction log. Past that, encodePosition throws
 * rather than round, because a rounded position would break uniqueness and resume.
 */
export const MAX_ENCODABLE_POSITION = BigInt(Number.MAX_SAFE_INTEGER);

/** A client Position that the ledger's numeric positions cannot represent. */
export class UnencodablePositionError extends RangeError {
  override readonly name = 'UnencodablePositionError';
  constructor(
    readonly position: Position,
    reason: string,
  ) {
    super(`EventStoreDB position {commit: ${position.commit}, prepare: ${position.prepare}}: ${reason}`);
  }
}

/** Client Position -> port position (a positive safe integer). */
export function encodePosition(position: Position): number {
  const { commit, prepare } = position;
  if (commit !== prepare) {
    throw new UnencodablePositionError(
      position,
      'commit and prepare differ (an explicit transaction, which this ledger never writes); it has no single numeric position',
    );
  }
  if (commit > MAX_ENCODABLE_POSITION) {
    throw new UnencodablePositionError(
      position,
      'beyond 2^53-1 bytes of log, the largest position a JS number holds exactly ' +
        '(2^64-1 means the server sent no position: stream reads need EventStoreDB 22.6 or later)',
    );
  }
  if (commit <= 0n) {
    throw new UnencodablePositionError(position, 'an event cannot sit at or before log offset 0');
  }
  return Number(commit);
}

/**
 * Port position -> where to start reading $all. 0 is "before the first event" (START);
 * any other value is an event's own position, which the caller must treat as exclusive.
 */
export function decodePosition(position: number): ReadPosition {
  if (!Number.isSafeInteger(position) || position < 0) {
    throw new RangeError(`position must be a non-negative integer, got ${String(position)}`);
  }
  if (position === 0) return START;
  const offset = BigInt(position);
  return { commit: offset, prepare: offset };
}

/** $all order: by commit, then prepare. Negative if a comes first, 0 if equal, positive otherwise. */
export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** True if `position` comes strictly after the exclusive lower bound `after` (no bound: always). */
export function isAfter(position: Position, after: Position | undefined): boolean {
  return after === undefined || comparePositions(position, after) > 0;
}

/** True if `position` comes strictly before the exclusive upper bound `before` (no bound: always). */
export function isBefore(position: Position, before: Position | undefined): boolean {
  return before === undefined || comparePositions(position, before) < 0;
}
