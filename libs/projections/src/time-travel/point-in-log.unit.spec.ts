import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { lastPositionWhere, parsePointInLog } from './point-in-log';

describe('points in the log', () => {
  it('the binary search finds the last position whose event holds, gaps in positions included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 60 }), fc.integer({ min: 0, max: 520 }), async (raw, cut) => {
        const positions = [...raw].sort((a, b) => a - b);
        const head = positions[positions.length - 1] ?? 0;
        const firstAtOrAfter = (p: number) => {
          const found = positions.find((position) => position >= p);
          return found === undefined ? null : { position: found };
        };
        const expected = positions.filter((position) => position <= cut).pop() ?? 0;
        assert.equal(await lastPositionWhere(firstAtOrAfter, head, (event) => event.position <= cut), expected);
      }),
    );
  });

  it('digits are a position, an ISO-8601 time is a time, anything else is refused', () => {
    assert.deepEqual(parsePointInLog('42'), { position: 42 });
    assert.deepEqual(parsePointInLog('2025-01-01T12:00:00Z'), { time: new Date('2025-01-01T12:00:00Z') });
    assert.deepEqual(parsePointInLog('2025-01-01T12:00:00.123+02:00'), { time: new Date('2025-01-01T10:00:00.123Z') });
    for (const bad of ['', 'yesterday', '-1', '1e5', '2025-13-45T00:00:00Z', '12:00']) assert.equal(parsePointInLog(bad), null, bad);
  });
});
