/** How long deferred work waits for a next commit before it runs anyway. */
const FALLBACK_MS = 1;

interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

/**
 * Work no answer waits for (a request's log line and metrics, the store's commit observers,
 * its announcement of a commit to the read models), run while the writer thread syncs the
 * next commit: the main thread only waits then. Run at once after an answer instead, it sat
 * between the answer and the next request of the same client, which waited for it (at one
 * client a few per cent of each command's p50, within the host's noise of any single run).
 * It is also what lets the request log's lines share a write
 * (bench/results/2026-12-04-log-batch-interleaved.md). Without a next commit it runs after `FALLBACK_MS` (1 ms),
 * in the order it was deferred, so a quiet server's logs and metrics are a millisecond later
 * than before. A read that must find the read models past every answer given has the store
 * announce its commits at once (EventStore.announceCommits) and waits for their fold.
 *
 * One queue per thread (`deferredWork`): whichever store hands a commit over, the main thread
 * is then free.
 */
export class DeferredWork {
  private queue: (() => void)[] = [];
  private timer: unknown = null;
  private inRun = false;
  private readonly runEnds = new Set<() => void>();

  constructor(
    private readonly fallbackMs = FALLBACK_MS,
    private readonly timers: Timers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout) },
  ) {}

  /** How many pieces of work wait. */
  get pending(): number {
    return this.queue.length;
  }

  /** Whether deferred work is running now (a sink may gather what it writes until the run ends). */
  get running(): boolean {
    return this.inRun;
  }

  /** Calls `listener` at the end of every run that ran work; returns the unsubscribe. */
  onRunEnd(listener: () => void): () => void {
    this.runEnds.add(listener);
    return () => this.runEnds.delete(listener);
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
    // Inside a run, the run goes on with what is deferred meanwhile.
    if (this.queue.length === 0 || this.inRun) return;
    this.inRun = true;
    try {
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
    } finally {
      this.inRun = false;
      // Everything deferred so far, during the run too, has run: the fallback has nothing to do.
      if (this.timer !== null) {
        this.timers.clearTimeout(this.timer);
        this.timer = null;
      }
      for (const listener of this.runEnds) {
        try {
          listener();
        } catch {
          // As above: the run is over whatever a listener does.
        }
      }
    }
  }
}

/** The thread's one queue: the store drains it at each hand-off, the app defers its bookkeeping to it. */
export const deferredWork = new DeferredWork();
