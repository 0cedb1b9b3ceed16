import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DeferredWork } from '@ledger/event-store';
import { gatheringDeferredLines, type Later } from './deferred-log-lines';

/** A clock the test moves by hand, with the timers of both the deferred work's fallback and the lines' hold on it. */
const manualClock = () => {
  let now = 0;
  let next = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  const setTimer = (run: () => void, ms: number): number => {
    timers.set(++next, { at: now + ms, run });
    return next;
  };
  const later: Later = (run, ms) => {
    const id = setTimer(run, ms);
    return () => void timers.delete(id);
  };
  return {
    now: () => now,
    later,
    timers: { setTimeout: setTimer, clearTimeout: (timer: unknown) => void timers.delete(timer as number) },
    /** Moves the clock on, firing each timer due by then in the order they fall due. */
    advance(ms: number): void {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, timer]) => timer.at <= until).sort(([a, x], [b, y]) => x.at - y.at || a - b)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = until;
    },
  };
};

/** A sink that keeps each write(2) the lines went out in. */
const recordingSink = () => {
  const writes: string[] = [];
  return { writes, sink: { write: (text: string) => void writes.push(text) } };
};

type Step = { kind: 'direct' } | { kind: 'defer'; lines: number; long: boolean } | { kind: 'handOff' } | { kind: 'tick'; ms: number } | { kind: 'flush' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'direct' }),
  fc.record({ kind: fc.constant('defer' as const), lines: fc.integer({ min: 1, max: 4 }), long: fc.boolean() }),
  fc.constant<Step>({ kind: 'handOff' }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 30 }) }),
  fc.constant<Step>({ kind: 'flush' }),
);

describe('gatheringDeferredLines', () => {
  it('without holding, writes the lines of one run of deferred work in one write as the run ends, in order, and any other line at once', () => {
    const { writes, sink } = recordingSink();
    const work = new DeferredWork(1, { setTimeout: () => 0, clearTimeout: () => undefined });
    const out = gatheringDeferredLines(sink, work, 0);
    out.write('startup\n');
    work.defer(() => out.write('request 1\n'));
    work.defer(() => out.write('request 2\n'));
    assert.deepEqual(writes, ['startup\n']);
    work.handedOff();
    assert.deepEqual(writes, ['startup\n', 'request 1\nrequest 2\n']);
    out.write('a warning\n');
    work.runNow();
    assert.deepEqual(writes, ['startup\n', 'request 1\nrequest 2\n', 'a warning\n'], 'a run with nothing to write writes nothing');
  });

  it('holding, writes the lines of the runs of one hold in one write when it ends, and what is held before any other line', () => {
    const clock = manualClock();
    const { writes, sink } = recordingSink();
    const work = new DeferredWork(1, clock.timers);
    const out = gatheringDeferredLines(sink, work, 20, clock.later);
    for (const request of [1, 2, 3]) {
      work.defer(() => out.write(`request ${request}\n`));
      work.handedOff();
      clock.advance(5);
    }
    assert.deepEqual(writes, [], 'held: 15 ms after the first run');
    clock.advance(5);
    assert.deepEqual(writes, ['request 1\nrequest 2\nrequest 3\n'], 'one write, 20 ms after the first run');
    work.defer(() => out.write('request 4\n'));
    work.handedOff();
    out.write('a warning\n');
    assert.deepEqual(writes.slice(1), ['request 4\n', 'a warning\n'], 'a line written at once goes after what was held');
    work.defer(() => out.write('request 5\n'));
    work.handedOff();
    out.flush();
    assert.deepEqual(writes.slice(3), ['request 5\n'], 'a flush (a stop, the exit) writes what is held');
  });

  it('over any history of requests, other lines, commits, time and flushes: keeps the lines in order, holds none longer than the hold or past the size bound, and a flush leaves none', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.constantFrom(0, 1, 20), (steps, holdMs) => {
        const clock = manualClock();
        const { writes, sink } = recordingSink();
        const work = new DeferredWork(1, clock.timers);
        const maxHeldChars = 100;
        const out = gatheringDeferredLines(sink, work, holdMs, clock.later, maxHeldChars);
        const produced: { line: string; at: number }[] = [];
        const write = (line: string) => {
          produced.push({ line, at: clock.now() });
          out.write(line);
        };
        let n = 0;
        for (const next of steps) {
          if (next.kind === 'direct') write(`direct ${++n}\n`);
          if (next.kind === 'defer') {
            const lines = Array.from({ length: next.lines }, () => `deferred ${++n}${next.long ? ' '.repeat(40) : ''}\n`);
            work.defer(() => lines.forEach(write));
          }
          if (next.kind === 'handOff') work.handedOff();
          if (next.kind === 'tick') clock.advance(next.ms);
          if (next.kind === 'flush') out.flush();
          const written = writes.join('');
          const all = produced.map(({ line }) => line).join('');
          assert.ok(all.startsWith(written), 'what went out is what was written, in order');
          let end = 0;
          const unwritten = produced.filter(({ line }) => (end += line.length) > written.length);
          if (holdMs === 0) assert.equal(written, all, 'without holding, nothing waits once its run has ended');
          else
            assert.deepEqual(
              unwritten.filter(({ at }) => at + holdMs <= clock.now()),
              [],
              `no line held ${holdMs} ms or more (now ${clock.now()})`,
            );
          if (next.kind === 'direct' || next.kind === 'flush') assert.equal(written, all, 'a line written at once, or a flush, leaves nothing held');
          assert.ok(all.length - written.length < maxHeldChars, `held ${all.length - written.length} characters, the bound is ${maxHeldChars}`);
        }
        work.runNow();
        out.flush();
        assert.equal(writes.join(''), produced.map(({ line }) => line).join(''));
      }),
      { numRuns: 500 },
    );
  });
});
