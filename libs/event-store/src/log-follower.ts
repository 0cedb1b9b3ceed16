import type { RecordedEvent } from './envelope';
import type { AllSubscription, EventStore } from './event-store.port';

/** Why and how a follower resubscribes: for the log line and the restart metric. */
export interface SubscriptionRestart {
  subscriber: string;
  /** `error`: the subscription or the handler failed; `ended`: the store ended the stream cleanly. */
  reason: 'error' | 'ended';
  error?: unknown;
  /** Restarts in a row without an event handled in between (1 after progress). */
  attempt: number;
  /** Wait before resubscribing. */
  delayMs: number;
  /** The checkpoint it resubscribes from. */
  fromPosition: number;
}

interface LogFollowerCommonOptions {
  /** Names the subscriber in restarts (log and metric label). */
  subscriber: string;
  /** Where to (re)subscribe from, asked at every subscribe: the subscriber's own checkpoint. */
  checkpoint: () => number;
  /** Runs before each subscribe, e.g. a paged catch-up; a failure counts as a restart. */
  catchUp?: () => Promise<void>;
  /** Told of every restart before its wait: log it, count it. */
  onRestart?: (restart: SubscriptionRestart) => void;
  /** First wait before resubscribing (default 100 ms); doubles per restart without progress. */
  initialDelayMs?: number;
  /** Longest wait (default 10 s). */
  maxDelayMs?: number;
}

/**
 * One of: `handle`, one event at a time, in log order; or `handlePage`, the events the
 * subscription holds ready, in log order, at least one (a burst of appends folds in one
 * transaction instead of one per event). Throwing restarts from the checkpoint.
 */
export type LogFollowerOptions = LogFollowerCommonOptions &
  (
    | { handle: (event: RecordedEvent) => void | Promise<void> }
    | {
        handlePage: (events: RecordedEvent[]) => void | Promise<void>;
        /**
         * Folds live pages at most this often (default 0: as soon as they are ready). A page's
         * cost is mostly fixed (a read-model transaction), so under a trickle of single
         * commits a short pause lets several fold as one. `hurry()` ends a pause early, for a
         * reader waiting on a position.
         */
        minPageIntervalMs?: number;
        /** Asked after each page: true skips the pause (a reader waits for events past it). */
        someoneWaits?: () => boolean;
      }
  );

/**
 * Follows the store's log for the life of a subscriber, whatever the store does to the
 * subscription. A live subscription ends on errors (connection lost, leader change; servers
 * before EventStoreDB 24.2 drop a consumer that falls 32 events behind, "consumer too slow")
 * and may end cleanly when the server closes the stream. Either way the follower resubscribes
 * from the subscriber's checkpoint, after a backoff that grows while no event gets through,
 * and says so through `onRestart`. One mechanism for every subscriber: projectors, the lease
 * cascade, live audit streams. Only stop() ends it.
 */
export class LogFollower {
  private subscription: AllSubscription | null = null;
  private loop: Promise<void> | null = null;
  private stopped = false;
  private wakeFromBackoff: (() => void) | null = null;
  private endPause: (() => void) | null = null;
  private restartCount = 0;

  constructor(
    private readonly store: EventStore,
    private readonly options: LogFollowerOptions,
  ) {}

  /** Restarts so far. */
  get restarts(): number {
    return this.restartCount;
  }

  start(): void {
    if (this.loop || this.stopped) return;
    this.loop = this.follow();
  }

  /** Ends the subscription and the loop; waits for an event being handled to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeFromBackoff?.();
    this.endPause?.();
    await this.subscription?.close().catch(() => undefined);
    await this.loop;
  }

  /** Ends a pause between live pages now (see `minPageIntervalMs`): someone waits for what comes next. */
  hurry(): void {
    this.endPause?.();
  }

  private async follow(): Promise<void> {
    let attempt = 0;
    while (!this.stopped) {
      let progressed = false;
      let failure: { error: unknown } | null = null;
      // Progress is the checkpoint moving, wherever it moved: a catch-up that folded pages and
      // then failed (a full disk) made progress, and should retry soon, not after a doubled wait.
      const from = this.options.checkpoint();
      try {
        await this.options.catchUp?.();
        if (this.stopped) return;
        const subscription = this.store.subscribeToAll({ fromPosition: this.options.checkpoint() });
        this.subscription = subscription;
        try {
          for await (const event of subscription) {
            if (this.stopped) return;
            if ('handlePage' in this.options) {
              const started = performance.now();
              const ready = subscription.takeReady?.() ?? [];
              await this.options.handlePage(ready.length === 0 ? [event] : [event, ...ready]);
              progressed = true;
              if (!this.options.someoneWaits?.()) await this.pause(started + (this.options.minPageIntervalMs ?? 0) - performance.now());
            } else {
              await this.options.handle(event);
              progressed = true;
            }
          }
        } finally {
          await subscription.close().catch(() => undefined);
        }
      } catch (error) {
        failure = { error };
      }
      if (this.stopped) return;
      attempt = progressed || this.options.checkpoint() > from ? 1 : attempt + 1;
      const delayMs = Math.min((this.options.initialDelayMs ?? 100) * 2 ** (attempt - 1), this.options.maxDelayMs ?? 10_000);
      this.restartCount += 1;
      this.options.onRestart?.({
        subscriber: this.options.subscriber,
        reason: failure ? 'error' : 'ended',
        ...(failure ? { error: failure.error } : {}),
        attempt,
        delayMs,
        fromPosition: this.options.checkpoint(),
      });
      await this.backoff(delayMs);
    }
  }

  /** Waits `ms` (nothing if <= 0) unless hurried or stopped; appends meanwhile are read as one page after it. */
  private pause(ms: number): Promise<void> {
    if (ms <= 0 || this.stopped) return Promise.resolve();
    return wakeableWait(ms, (wake) => (this.endPause = wake));
  }

  private backoff(ms: number): Promise<void> {
    return wakeableWait(ms, (wake) => (this.wakeFromBackoff = wake));
  }
}

/** Waits `ms`, or until the wake-up handed to `hold` is called; `hold(null)` once the wait is over. */
const wakeableWait = (ms: number, hold: (wake: (() => void) | null) => void): Promise<void> =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(wake, ms);
    function wake() {
      clearTimeout(timer);
      resolve();
    }
    hold(wake);
  }).finally(() => hold(null));
