import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { START } from '@eventstore/db-client';
import type { Position } from '@eventstore/db-client';
import { MAX_ENCODABLE_POSITION, UnencodablePositionError, comparePositions, decodePosition, encodePosition, isAfter, isBefore } from './position.codec';

/** A self-committed event's position, as the server reports it: commit == prepare == its log offset. */
const at = (offset: bigint): Position => ({ commit: offset, prepare: offset });
const offsets = fc.bigInt({ min: 1n, max: MAX_ENCODABLE_POSITION });
const portPositions = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });

/**
 * A transaction log as a gRPC append lays it out: records back to back, each event at the
 * offset where its record starts. Offset 0 holds the first epoch record, so the first event
 * starts after it.
 */
const logOffsets = fc.array(fc.integer({ min: 60, max: 10_000 }), { minLength: 1, maxLength: 60 }).map((sizes) => {
  let offset = 128n; // the epoch record and friends
  return sizes.map((size) => {
    const eventAt = offset;
    offset += BigInt(size);
    return eventAt;
  });
});

describe('position codec: EventStoreDB {commit, prepare} <-> port number', () => {
  it('round-trips every encodable position, both ways', () => {
    fc.assert(fc.property(offsets, (offset) => assert.deepEqual(decodePosition(encodePosition(at(offset))), at(offset))));
    fc.assert(fc.property(portPositions, (position) => assert.equal(encodePosition(decodePosition(position) as Position), position)));
  });

  it('0 means "before the first event" and decodes to START', () => {
    assert.equal(decodePosition(0), START);
  });

  it('preserves $all order exactly: a before b iff encode(a) < encode(b)', () => {
    fc.assert(
      fc.property(offsets, offsets, (a, b) => {
        assert.equal(Math.sign(encodePosition(at(a)) - encodePosition(at(b))), Math.sign(comparePositions(at(a), at(b))));
      }),
    );
  });

  it('gives every event of a log its own, strictly increasing position', () => {
    fc.assert(
      fc.property(logOffsets, (log) => {
        const positions = log.map((offset) => encodePosition(at(offset)));
        positions.forEach((position, i) => {
          assert.ok(position > 0);
          if (i > 0) assert.ok(position > positions[i - 1]);
        });
      }),
    );
  });

  it('resuming from any returned position gives exactly the events after it: exclusive, no gap, no duplicate', () => {
    fc.assert(
      fc.property(logOffsets, fc.nat(), (log, pick) => {
        const events = log.map(at);
        const resumeFrom = pick % (events.length + 1) === 0 ? 0 : encodePosition(events[(pick % (events.length + 1)) - 1]);
        const decoded = decodePosition(resumeFrom);
        const bound = decoded === START ? undefined : (decoded as Position);
        // Whether the server's read includes its start (readAll) or not (subscription), the bound decides.
        const inclusiveRead = events.filter((event) => bound === undefined || comparePositions(event, bound) >= 0);
        const resumed = inclusiveRead.filter((event) => isAfter(event, bound)).map(encodePosition);
        const expected = events.map(encodePosition).filter((position) => position > resumeFrom);
        assert.deepEqual(resumed, expected);
      }),
    );
  });

  it('orders by commit first, then prepare', () => {
    assert.ok(comparePositions({ commit: 10n, prepare: 99n }, { commit: 11n, prepare: 0n }) < 0);
    assert.ok(comparePositions({ commit: 10n, prepare: 5n }, { commit: 10n, prepare: 6n }) < 0);
    assert.equal(comparePositions(at(7n), at(7n)), 0);
    assert.equal(isAfter(at(7n), at(7n)), false, 'the bound itself is excluded');
    assert.equal(isBefore(at(7n), at(7n)), false, 'the bound itself is excluded');
    assert.equal(isAfter(at(1n), undefined), true);
    assert.equal(isBefore(at(1n), undefined), true);
  });

  it('refuses positions above 2^53-1 instead of rounding them', () => {
    assert.equal(encodePosition(at(MAX_ENCODABLE_POSITION)), Number.MAX_SAFE_INTEGER);
    assert.throws(() => encodePosition(at(MAX_ENCODABLE_POSITION + 1n)), UnencodablePositionError);
    assert.throws(() => encodePosition(at(2n ** 64n - 1n)), /no position: stream reads need EventStoreDB 22.6/);
    fc.assert(
      fc.property(fc.bigInt({ min: MAX_ENCODABLE_POSITION + 1n, max: 2n ** 64n - 1n }), (offset) => {
        assert.throws(() => encodePosition(at(offset)), UnencodablePositionError);
      }),
    );
  });

  it('refuses positions of explicit transactions (commit != prepare) and offset 0', () => {
    assert.throws(() => encodePosition({ commit: 500n, prepare: 300n }), /commit and prepare differ/);
    assert.throws(() => encodePosition(at(0n)), UnencodablePositionError);
  });

  it('refuses port positions that are not non-negative safe integers', () => {
    for (const bad of [-1, 0.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) {
      assert.throws(() => decodePosition(bad), RangeError, String(bad));
    }
  });
});
