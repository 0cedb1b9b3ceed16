import type { DestinationStream } from 'pino';
import { deferredWork, type DeferredWork } from '@ledger/event-store';

/** Runs `run` once after `ms`; returns what cancels it. */
export type Later = (run: () => void, ms: number) => () => void;

/** A timer that never keeps the process alive: what it would write, the exit writes. */
const unrefTimer: Later = (run, ms) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** Held lines past this many characters go out at once: a busy server's lines need no holding to share a write. */
export const MAX_HELD_CHARS = 64 * 1024;

export interface DeferredLines extends DestinationStream {
  /** Writes every line held or gathered, now (a stop, the process's exit). */
  flush(): void;
}

/**
 * Lines written by deferred work (deferred-work.ts: the request lines, after their answers)
 * are gathered while its run goes on and then held for up to `holdMs` (20 ms),
 * so the lines of many answers share one write(2) and whatever reads the ledger's stdout
 * (journald, a container runtime's log pipe, a terminal) is woken once for them, not once per
 * request: at one client each such wake-up came while the writer thread synced the next
 * commit, and cost the two cores' scheduling more than the write itself: the ledger's p50 was
 * 1.41 of the baseline's without the hold, 1.32 with it
 * (bench/results/2026-12-04-log-batch-interleaved.md). Any other line is written at once, after everything held, so lines keep their
 * order; so is everything held once it reaches `maxHeldChars`. `holdMs` 0: each run's
 * lines in one write as the run ends.
 */
export const gatheringDeferredLines = (
  out: DestinationStream,
  work: DeferredWork = deferredWork,
  holdMs = 0,
  later: Later = unrefTimer,
  maxHeldChars = MAX_HELD_CHARS,
): DeferredLines => {
  let held = '';
  let cancel: (() => void) | null = null;
  const flush = (): void => {
    cancel?.();
    cancel = null;
    if (held === '') return;
    const lines = held;
    held = '';
    out.write(lines);
  };
  work.onRunEnd(() => {
    if (held === '') return;
    if (holdMs === 0 || held.length >= maxHeldChars) flush();
    else cancel ??= later(flush, holdMs);
  });
  return {
    write: (line: string) => {
      if (work.running) held += line;
      else {
        flush();
        out.write(line);
      }
    },
    flush,
  };
};
