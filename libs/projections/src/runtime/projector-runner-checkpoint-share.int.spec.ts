import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '@ledger/event-store';
import type { Projector } from './projector';
import { CHECKPOINT_SHARE, type ProjectorRunner } from './projector-runner';
import { eventually } from './testing/eventually';
import { withRunnerOnTempStore } from './testing/runner-on-temp-store.fixture';

/** A projector whose checkpoint costs `costMs` on the runner's clock (a big in-memory state written whole). */
class CostlyCheckpoint implements Projector {
  readonly name = 'costly-checkpoint';
  position = 0;
  flushes = 0;

  constructor(
    private readonly clock: { ms: number },
    private readonly costMs: number,
  ) {}

  applyPage(events: readonly RecordedEvent[]): void {
    this.position = events[events.length - 1].position;
  }

  flush(): boolean {
    this.flushes++;
    this.clock.ms += this.costMs;
    return true;
  }
}

/**
 * A runner ticking every 5 ms on a clock that moves only when told (and while a checkpoint
 * is written); `ticks` counts the timer's looks at the clock, so a test can wait for ticks
 * that did not flush instead of sleeping.
 */
const withRunner = (
  costMs: number,
  test: (context: { clock: { ms: number }; projector: CostlyCheckpoint; runner: ProjectorRunner<CostlyCheckpoint>; ticks: () => number }) => Promise<void>,
) => {
  const clock = { ms: 0 };
  let looks = 0;
  const projector = new CostlyCheckpoint(clock, costMs);
  const now = () => {
    looks++;
    return clock.ms;
  };
  return withRunnerOnTempStore(projector, { flushEveryMs: 5, now }, ({ runner }) => test({ clock, projector, runner, ticks: () => looks }));
};

describe('a projector runner’s timed checkpoints', () => {
  it('wait after a slow checkpoint until it is CHECKPOINT_SHARE of the time since it began', { timeout: 60_000 }, () =>
    withRunner(100, async ({ clock, projector, ticks }) => {
      await eventually(() => projector.flushes === 1, 'the first checkpoint');
      const due = 100 / CHECKPOINT_SHARE;
      const seen = ticks();
      await eventually(() => ticks() >= seen + 20, 'twenty more ticks');
      assert.equal(projector.flushes, 1, 'a checkpoint followed one that took 100 ms within its own time');
      clock.ms = due - 1;
      const later = ticks();
      await eventually(() => ticks() >= later + 20, 'twenty more ticks');
      assert.equal(projector.flushes, 1, `a checkpoint ran before ${due} ms`);
      clock.ms = due;
      await eventually(() => projector.flushes === 2, `the checkpoint due at ${due} ms`);
    }),
  );

  it('wait after a slow checkpoint taken outside the timer too (the one after a start’s catch-up)', { timeout: 60_000 }, () =>
    withRunner(100, async ({ clock, projector, runner, ticks }) => {
      await eventually(() => projector.flushes === 1, 'the first timed checkpoint');
      clock.ms = 100 / CHECKPOINT_SHARE + 100;
      runner.flush();
      assert.equal(projector.flushes, 2);
      const seen = ticks();
      await eventually(() => ticks() >= seen + 20, 'twenty more ticks');
      assert.equal(projector.flushes, 2, 'a timed checkpoint followed the one taken by hand within its own time');
    }),
  );

  it('come every flushEveryMs when they cost nothing', { timeout: 60_000 }, () =>
    withRunner(0, async ({ projector }) => {
      await eventually(() => projector.flushes >= 5, 'five checkpoints on a clock that never moves');
    }),
  );
});
