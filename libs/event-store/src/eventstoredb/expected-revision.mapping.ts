import { ANY, NO_STREAM, STREAM_EXISTS } from '@eventstore/db-client';
import type { AppendExpectedRevision, CurrentRevision } from '@eventstore/db-client';
import type { ActualRevision, ExpectedRevision } from '../expected-revision';

/**
 * Port ExpectedRevision -> the client's. Both count revisions from 0, so a number maps
 * to the same bigint. Any other number (negative, fractional, unsafe) is a caller bug,
 * refused here before it reaches the server.
 *
 * Note for the switch to @kurrent/kurrentdb-client: the successor calls this option
 * `streamState` (same values). This file and wrong-expected-version.mapping.ts are the
 * only places that know the client's names.
 */
export function toClientExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      return BigInt(requireRevision(expected, 'expectedRevision'));
  }
}

/**
 * The client's view of a stream's current state -> the port's ActualRevision.
 * The server encodes "no stream" as -1 on some paths (e.g. gRPC error metadata), so any
 * negative revision means the stream does not exist.
 */
export function fromClientCurrentRevision(current: CurrentRevision): ActualRevision {
  if (current === NO_STREAM || current < 0n) return 'no_stream';
  return revisionFromBigInt(current);
}

/** A client stream revision (bigint) -> the port's revision (number). */
export function revisionFromBigInt(revision: bigint): number {
  if (revision < 0n || revision > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`stream revision ${revision} is outside 0..2^53-1`);
  }
  return Number(revision);
}

/** A 0-based revision given to the port: a safe, non-negative integer. */
export function requireRevision(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer revision, got ${String(value)}`);
  }
  return value;
}
