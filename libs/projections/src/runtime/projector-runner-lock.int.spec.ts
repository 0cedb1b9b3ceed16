/**
 * A runner's timed checkpoints run on the event loop: they give way to another holder of
 * the read-model file's write lock instead of sleeping on it, are tried again at every
 * tick, and wait for the lock once they have given way for MAX_GIVE_WAY_MS. A
 * graceful stop's checkpoint always waits.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordedEvent } from '@ledger/event-store';
import { eventually } from './testing/eventually';
import type { FlushOptions, Projector } from './projector';
import { MAX_GIVE_WAY_MS } from './write-unless-locked';
import { withRunnerOnTempStore } from './testing/runner-on-temp-store.fixture';

/** A projector whose checkpoint finds the write lock taken while `locked`, unless it may wait. */
class LockedCheckpoint implements Projector {
  readonly name = 'locked-checkpoint';
  position = 0;
  locked = true;
  readonly flushes: { wait: boolean; saved: boolean }[] = [];

  applyPage(events: readonly RecordedEvent[]): void {
    this.position = events[events.length - 1].position;
  }

  flush(options: FlushOptions = {}): boolean {
    const wait = options.wait !== false;
    const saved = wait || !this.locked;
    this.flushes.push({ wait, saved });
    return saved;
  }
}

describe('a projector runner’s timed checkpoints and the write lock', () => {
  it('give way while another connection holds it, try again at each tick, and wait once they have given way for MAX_GIVE_WAY_MS', async () => {
    const clock = { ms: 0 };
    const projector = new LockedCheckpoint();
    let deferred = 0;
    await withRunnerOnTempStore(projector, { flushEveryMs: 5, now: () => clock.ms, onCheckpointDeferred: () => deferred++ }, async ({ runner }) => {
      await eventually(() => projector.flushes.length >= 3, 'three timed checkpoints');
      // The clock has not moved: none of them may wait.
      assert.ok(projector.flushes.every((flush) => !flush.wait && !flush.saved));
      assert.equal(deferred, projector.flushes.length);
      clock.ms = MAX_GIVE_WAY_MS - 1;
      const before = projector.flushes.length;
      await eventually(() => projector.flushes.length >= before + 2, 'two more');
      assert.ok(projector.flushes.slice(before).every((flush) => !flush.wait));
      clock.ms = MAX_GIVE_WAY_MS;
      await eventually(() => projector.flushes.some((flush) => flush.wait), 'a checkpoint that waits');
      // Saved: the next ones give way again, counted from their own first.
      const saved = projector.flushes.length;
      await eventually(() => projector.flushes.length >= saved + 2, 'two more');
      assert.ok(projector.flushes.slice(saved).every((flush) => !flush.wait));
      projector.locked = false;
      const freed = projector.flushes.length;
      await eventually(() => projector.flushes.slice(freed).some((flush) => flush.saved), 'a save once the lock is free');
      const stopped = projector.flushes.length;
      projector.locked = true;
      await runner.stop();
      // A graceful stop's checkpoint waits for the lock.
      assert.deepEqual(projector.flushes.slice(stopped).at(-1), { wait: true, saved: true });
    });
  });
});
