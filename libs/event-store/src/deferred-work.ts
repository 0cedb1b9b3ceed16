/** How long deferred work waits for a next commit before it runs anyway. */
const FALLBACK_MS = 1;

interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

/**
 * Work no answer waits for (a request's log line and metrics, waking the read models after
 * a commit), run while the writer thread syncs the next commit: the main thread only waits
 * then. Run at once after an answer instead, it sat between the answer and the next request
 * of the same client, which waited for it (at one client, 3-7% of each command's p50:
 * bench/README.md, stop 41). Without a next commit it runs after `FALLBACK_MS` (1 ms),
 * in the order it was deferred, so a quiet server is as up to date as before, a millisecond
 * later.
 *
 * One queue per thread (`deferredWork`): whichever store hands a commit over, the main thread
 * is then free.
 */
export class DeferredWork {
  private queue: (() => void)[] = [];
  private timer: unknown = null;

  constructor(
    private readonly fallbackMs = FALLBACK_MS,
    private readonly timers: Timers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout) },
  ) {}

  /** How many pieces of work wait. */
  get pending(): number {
    return this.queue.length;
  }

  defer(work: () => void): void {
    this.queue.push(work);
    this.timer ??= this.timers.setTimeout(() => {
      this.timer = null;
      this.runNow();
    }, this.fallbackMs);
  }

  /** A commit has just been handed to the writer thread: the main thread waits for it now. */
  handedOff(): void {
    if (this.queue.length > 0) this.runNow();
  }

  /**
   * Runs everything deferred, and what that defers in turn, now: before a metrics scrape (so
   * it counts every request answered) and at shutdown (so no log line is left behind). Work
   * that throws is skipped; what it failed to do is its own to report.
   */
  runNow(): void {
    if (this.timer !== null) {
      this.timers.clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      for (const work of batch) {
        try {
          work();
        } catch {
          // Deferred work is bookkeeping after the fact; one failure must not drop the rest.
        }
      }
    }
  }
}

/** The thread's one queue: the store drains it at each hand-off, the app defers its bookkeeping to it. */
export const deferredWork = new DeferredWork();
