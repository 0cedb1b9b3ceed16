import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StreamNotFoundError, UnavailableError, WrongExpectedVersionError } from '@eventstore/db-client';
import { ConcurrencyError, isConcurrencyError } from '../concurrency-error';
import { isWrongExpectedVersion, toConcurrencyError, translateAppendError } from './wrong-expected-version.mapping';

// The errors are built with the client's own constructors, the way its append path builds
// them from a server answer; no server is involved.
const wrongExpectedVersion = (current: bigint | 'no_stream', expected: bigint | 'no_stream' | 'stream_exists' | 'any') =>
  new WrongExpectedVersionError(undefined, { streamName: 'node-n1', current, expected });

describe('wrong expected version -> ConcurrencyError', () => {
  it('recognises the client error by its type', () => {
    assert.equal(isWrongExpectedVersion(wrongExpectedVersion(3n, 2n)), true);
    assert.equal(isWrongExpectedVersion(new StreamNotFoundError(undefined, 'node-n1')), false);
    assert.equal(isWrongExpectedVersion(new Error('wrong-expected-version')), false);
    assert.equal(isWrongExpectedVersion({ type: 'wrong-expected-version' }), false);
  });

  it('an existing stream: actual is its last revision, expected is what the caller passed', () => {
    const error = toConcurrencyError(wrongExpectedVersion(4n, 2n), 'node-n1', 2);
    assert.ok(error instanceof ConcurrencyError);
    assert.equal(error.stream, 'node-n1');
    assert.equal(error.expected, 2);
    assert.equal(error.actual, 4);
    assert.match(error.message, /node-n1: expected revision 2, actual 4/);
  });

  it('a missing stream: actual is no_stream', () => {
    const error = toConcurrencyError(wrongExpectedVersion('no_stream', 'stream_exists'), 'node-n1', 'stream_exists');
    assert.equal(error.actual, 'no_stream');
    assert.equal(error.expected, 'stream_exists');
  });

  it('no_stream expected, stream exists: actual is the revision, revision 0 included', () => {
    const error = toConcurrencyError(wrongExpectedVersion(0n, 'no_stream'), 'node-n1', 'no_stream');
    assert.equal(error.actual, 0);
    assert.equal(error.expected, 'no_stream');
  });

  it('keeps the caller expectation even when the server reports it encoded (-1 for no stream)', () => {
    const error = toConcurrencyError(wrongExpectedVersion(5n, -1n as unknown as bigint), 'ip-10.0.0.1', 'no_stream');
    assert.equal(error.expected, 'no_stream');
    assert.equal(error.actual, 5);
  });

  it('translates only revision conflicts; other failures pass through untouched', () => {
    assert.ok(isConcurrencyError(translateAppendError(wrongExpectedVersion(1n, 0n), 'node-n1', 0)));
    const unavailable = new UnavailableError(undefined, 'down');
    assert.equal(translateAppendError(unavailable, 'node-n1', 0), unavailable);
    const plain = new TypeError('bug');
    assert.equal(translateAppendError(plain, 'node-n1', 0), plain);
  });
});
