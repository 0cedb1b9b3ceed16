import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DeferredWork } from './deferred-work';

/** Timers the test fires by hand: what the fallback does, with no clock in the test. */
const manualTimers = () => {
  const armed = new Map<number, () => void>();
  let next = 0;
  return {
    armed,
    timers: {
      setTimeout: (run: () => void) => {
        armed.set(++next, run);
        return next;
      },
      clearTimeout: (timer: unknown) => void armed.delete(timer as number),
    },
    fire: () => {
      const due = [...armed.values()];
      armed.clear();
      due.forEach((run) => run());
    },
  };
};

describe('DeferredWork', () => {
  it('runs nothing when work is deferred, and all of it, in order, at the next hand-off', () => {
    const { timers, armed } = manualTimers();
    const work = new DeferredWork(1, timers);
    const ran: number[] = [];
    work.defer(() => ran.push(1));
    work.defer(() => ran.push(2));
    assert.deepEqual(ran, []);
    assert.equal(work.pending, 2);
    work.handedOff();
    assert.deepEqual(ran, [1, 2]);
    assert.equal(armed.size, 0, 'the fallback is disarmed once the work has run');
  });

  it('runs the work after the fallback when no commit is handed off, with one timer for all of it', () => {
    const { timers, armed, fire } = manualTimers();
    const work = new DeferredWork(1, timers);
    const ran: string[] = [];
    work.defer(() => ran.push('log line'));
    work.defer(() => ran.push('metric'));
    assert.equal(armed.size, 1);
    fire();
    assert.deepEqual(ran, ['log line', 'metric']);
    work.handedOff();
    assert.deepEqual(ran, ['log line', 'metric'], 'nothing runs twice');
  });

  it('goes on past work that throws, and runs what work defers in the same run', () => {
    const { timers, armed } = manualTimers();
    const work = new DeferredWork(1, timers);
    const ran: string[] = [];
    work.defer(() => {
      throw new Error('a metric that failed');
    });
    work.defer(() => {
      ran.push('first');
      work.defer(() => ran.push('deferred by the first'));
    });
    work.runNow();
    assert.deepEqual(ran, ['first', 'deferred by the first']);
    assert.equal(work.pending, 0);
    assert.equal(armed.size, 0, 'no fallback is left armed for work that has run');
  });

  it('says it is running while its work runs, and tells its run-end listeners once per run that ran work', () => {
    const { timers } = manualTimers();
    const work = new DeferredWork(1, timers);
    const seen: string[] = [];
    work.onRunEnd(() => seen.push(`end, running: ${work.running}`));
    work.runNow();
    work.handedOff();
    assert.equal(seen.length, 0, 'no run without work');
    work.defer(() => seen.push(`work, running: ${work.running}`));
    work.defer(() => seen.push(`work, running: ${work.running}`));
    work.handedOff();
    assert.deepEqual(seen, ['work, running: true', 'work, running: true', 'end, running: false']);
  });

  it('runs every piece of work exactly once, in the order deferred, however deferrals, hand-offs and fallbacks interleave', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('defer', 'hand-off', 'fallback', 'run now'), { maxLength: 60 }), (steps) => {
        const { timers, fire } = manualTimers();
        const work = new DeferredWork(1, timers);
        const ran: number[] = [];
        let deferred = 0;
        for (const step of steps) {
          if (step === 'defer') {
            const id = deferred++;
            work.defer(() => ran.push(id));
          } else if (step === 'hand-off') work.handedOff();
          else if (step === 'fallback') fire();
          else work.runNow();
        }
        fire();
        assert.deepEqual(ran, [...Array(deferred).keys()]);
      }),
    );
  });
});
