import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { timeOrderedUuid } from './time-ordered-uuid';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('is a lowercase RFC 9562 version 7 UUID carrying its millisecond', () => {
    const id = timeOrderedUuid(Date.UTC(2030, 0, 1));
    assert.match(id, UUID_V7);
    assert.equal(parseInt(id.replace(/-/g, '').slice(0, 12), 16), Date.UTC(2030, 0, 1));
  });

  it('strictly increases, as text, whatever the clock does (same millisecond, or going back)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 2, maxLength: 5_000 }), (steps) => {
        let now = Date.UTC(2031, 0, 1) + Math.floor(Math.random() * 1e9);
        let previous = timeOrderedUuid(now);
        for (const step of steps) {
          now += step - 2; // sometimes the same millisecond, sometimes backwards
          const next = timeOrderedUuid(now);
          assert.match(next, UUID_V7);
          assert.ok(next > previous, `${next} after ${previous}`);
          previous = next;
        }
      }),
      { numRuns: 50 },
    );
  });

  it('does not repeat over a burst in one millisecond', () => {
    const now = Date.UTC(2032, 0, 1);
    const ids = Array.from({ length: 20_000 }, () => timeOrderedUuid(now));
    assert.equal(new Set(ids).size, ids.length);
  });
});
