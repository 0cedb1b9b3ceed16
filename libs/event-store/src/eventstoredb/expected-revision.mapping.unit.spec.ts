import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ANY, NO_STREAM, STREAM_EXISTS } from '@eventstore/db-client';
import { fromClientCurrentRevision, requireRevision, revisionFromBigInt, toClientExpectedRevision } from './expected-revision.mapping';

describe('expected revision mapping (port <-> @eventstore/db-client)', () => {
  it('maps the three named expectations to the client constants', () => {
    assert.equal(toClientExpectedRevision('no_stream'), NO_STREAM);
    assert.equal(toClientExpectedRevision('stream_exists'), STREAM_EXISTS);
    assert.equal(toClientExpectedRevision('any'), ANY);
  });

  it('maps a 0-based revision to the same 0-based bigint', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (revision) => {
        assert.equal(toClientExpectedRevision(revision), BigInt(revision));
      }),
    );
    assert.equal(toClientExpectedRevision(0), 0n, 'revision 0 is the first event, not "no stream"');
  });

  it('refuses revisions that are not non-negative safe integers', () => {
    for (const bad of [-1, -2, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1]) {
      assert.throws(() => toClientExpectedRevision(bad), RangeError, String(bad));
    }
  });

  it('maps the current revision reported in a conflict back to the port', () => {
    assert.equal(fromClientCurrentRevision(NO_STREAM), 'no_stream');
    assert.equal(fromClientCurrentRevision(-1n), 'no_stream', 'the server encodes "no stream" as -1 in error metadata');
    assert.equal(fromClientCurrentRevision(0n), 0);
    assert.equal(fromClientCurrentRevision(41n), 41);
  });

  it('round-trips every revision through the client representation', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (revision) => {
        const client = toClientExpectedRevision(revision);
        assert.equal(typeof client, 'bigint');
        assert.equal(fromClientCurrentRevision(client as bigint), revision);
      }),
    );
  });

  it('refuses client revisions a JS number cannot hold', () => {
    assert.throws(() => revisionFromBigInt(2n ** 53n), RangeError);
    assert.throws(() => revisionFromBigInt(-5n), RangeError);
    assert.equal(revisionFromBigInt(7n), 7);
  });

  it('names the offending option when a revision is bad', () => {
    assert.throws(() => requireRevision(-3, 'fromRevision'), /fromRevision must be a non-negative integer revision, got -3/);
  });
});
