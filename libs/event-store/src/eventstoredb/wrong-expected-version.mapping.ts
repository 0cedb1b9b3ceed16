import { ErrorType, isCommandError } from '@eventstore/db-client';
import type { WrongExpectedVersionError } from '@eventstore/db-client';
import { ConcurrencyError } from '../concurrency-error';
import type { ExpectedRevision } from '../expected-revision';
import { fromClientCurrentRevision } from './expected-revision.mapping';

/**
 * The client raises WrongExpectedVersionError when the server refused an append because the
 * stream's revision did not match. Recognised by its `type` rather than `instanceof`, so a
 * second copy of the client package in node_modules cannot make it slip through.
 */
export function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return error instanceof Error && isCommandError(error) && error.type === ErrorType.WRONG_EXPECTED_VERSION;
}

/**
 * WrongExpectedVersionError -> the port's one ConcurrencyError.
 * `expected` is what the caller passed to the port (the client's copy may be encoded as
 * -1/-2/-4 on some server paths, so ours is the faithful one). `actual` is 'no_stream' or
 * the stream's last revision.
 *
 * (@kurrent/kurrentdb-client renames `actualVersion` to `actualState`.)
 */
export function toConcurrencyError(error: WrongExpectedVersionError, stream: string, expected: ExpectedRevision): ConcurrencyError {
  return new ConcurrencyError(stream, expected, fromClientCurrentRevision(error.actualVersion));
}

/** Translate what an append threw: a revision mismatch becomes ConcurrencyError, anything else passes through. */
export function translateAppendError(error: unknown, stream: string, expected: ExpectedRevision): unknown {
  return isWrongExpectedVersion(error) ? toConcurrencyError(error, stream, expected) : error;
}
