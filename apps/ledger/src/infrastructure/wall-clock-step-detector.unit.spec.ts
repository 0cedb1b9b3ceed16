import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WallClockStepDetector } from './wall-clock-step-detector';

describe('WallClockStepDetector', () => {
  const clocks = () => {
    const time = { wall: Date.parse('2026-01-01T12:00:00Z'), monotonic: 5_000 };
    const detector = new WallClockStepDetector(
      () => time.wall,
      () => time.monotonic,
    );
    const tick = (ms: number, wallExtra = 0) => {
      time.monotonic += ms;
      time.wall += ms + wallExtra;
      return detector.look();
    };
    return { tick };
  };

  it('tells a step back once, with its size and the times around it', () => {
    const { tick } = clocks();
    assert.equal(tick(1_000), null);
    assert.deepEqual(tick(1_000, -3_600_000), { ms: -3_600_000, from: '2026-01-01T12:00:01.000Z', to: '2026-01-01T11:00:02.000Z' });
    assert.equal(tick(1_000), null, 'the new offset is the baseline: told once');
  });

  it('tells a step forward', () => {
    const { tick } = clocks();
    assert.equal(tick(1_000, 7_200_000)?.ms, 7_200_000);
  });

  it('a slow slew never adds up to a step, and an event loop stalled for a minute is no step', () => {
    const { tick } = clocks();
    for (let i = 0; i < 10_000; i++) assert.equal(tick(1_000, 0.5), null);
    assert.equal(tick(60_000), null);
  });
});
