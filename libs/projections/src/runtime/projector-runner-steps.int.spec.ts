/**
 * A checkpoint written a step at a time (a big fold's full save) does not wait for the
 * runner's next tick between its steps: the next follows as soon as its share of the
 * thread allows, so the save ends in seconds, not in a tick per step.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '@ledger/event-store';
import { eventually } from './testing/eventually';
import type { FlushOptions, Projector } from './projector';
import { withRunnerOnTempStore } from './testing/runner-on-temp-store.fixture';

/** A projector whose checkpoint takes `stepsLeft` timed steps. */
class SteppedCheckpoint implements Projector {
  readonly name = 'stepped-checkpoint';
  position = 0;
  stepsLeft = 100;
  readonly flushes: { step: boolean }[] = [];

  applyPage(events: readonly RecordedEvent[]): void {
    this.position = events[events.length - 1].position;
  }

  flush(options: FlushOptions = {}): boolean {
    const step = options.step === true;
    this.flushes.push({ step });
    this.stepsLeft = step ? Math.max(0, this.stepsLeft - 1) : 0;
    return true;
  }

  checkpointWorkPending(): boolean {
    return this.stepsLeft > 0;
  }
}

describe('a projector runner and a checkpoint written a step at a time', () => {
  it('runs the steps one after another, not one a tick, and a stop finishes the checkpoint at once', async () => {
    const projector = new SteppedCheckpoint();
    // A tick a second: 100 steps a tick apart would take 100 s, past eventually's 30 s.
    await withRunnerOnTempStore(projector, { flushEveryMs: 1_000 }, async ({ runner }) => {
      await eventually(() => projector.stepsLeft === 0, 'every step');
      assert.ok(projector.flushes.every((flush) => flush.step));
      projector.stepsLeft = 50;
      await runner.stop();
      assert.deepEqual(projector.flushes.at(-1), { step: false });
      assert.equal(projector.stepsLeft, 0);
    });
  });
});
