import { LogFollower, type EventStore, type SubscriptionRestart } from '@ledger/event-store';
import { PositionWaiters } from './position-waiters';
import type { FlushOptions, Projector, ProjectorRebuild } from './projector';
import { GiveWay } from './write-unless-locked';

export interface ProjectorRunnerOptions {
  /** Flush (checkpoint) at most this often while events flow; a slow flush waits longer (CHECKPOINT_SHARE). */
  flushEveryMs?: number;
  /** A monotonic clock in ms (performance.now): how long a flush took. */
  now?: () => number;
  /** Events read per page while catching up. */
  pageSize?: number;
  /** Called when a flush fails, and when following the log fails if there is no onRestart. */
  onError?: (error: unknown) => void;
  /** Told of every resubscription (failed, dropped or ended subscription): log it, count it. */
  onRestart?: (restart: SubscriptionRestart) => void;
  /** First wait before resubscribing; doubles while no event gets through. */
  retryMs?: number;
  /** Fold live pages at most this often (LogFollower's minPageIntervalMs); a reader waiting in waitFor hurries it. */
  minPageIntervalMs?: number;
  /** Told each time a timed checkpoint gave way to another writer holding the read-model file's write lock. */
  onCheckpointDeferred?: () => void;
  /** Told the projector's position each time it moves (a page folded, a rebuild swapped in): a thread reports it this way. */
  onAdvance?: (position: number) => void;
}

export interface RebuildProgress {
  startedAt: Date;
  /** How far the new projector has folded. */
  position: number;
  events: number;
}

export interface RebuildResult {
  position: number;
  events: number;
  seconds: number;
}

export class RebuildInProgressError extends Error {
  override readonly name = 'RebuildInProgressError';
}

const DEFAULT_PAGE = 1_000;
/**
 * The share of its thread timed checkpoints may take: one that took d ms is followed by the
 * next no sooner than d / CHECKPOINT_SHARE ms after it began. A fold's checkpoint writes only
 * what changed since the last one, but its first after a rebuild's swap, or at a start on a
 * checkpoint saved whole (`ledger-cli rebuild`'s, or an earlier version's), writes all of it
 * (the ledger view of a 1,000,000-event ledger: 108 MB, 1-2 s); a cheap one still comes every
 * flushEveryMs. A restart folds what came after the last checkpoint, from the log.
 */
export const CHECKPOINT_SHARE = 0.02;
/**
 * The share of its thread the steps of a checkpoint written a step at a time may take (a
 * big fold's full save, Projector.checkpointWorkPending): the next step follows as soon as
 * that allows, not at the next tick, so the save ends in seconds.
 */
export const CHECKPOINT_STEP_SHARE = 0.25;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Keeps one projector up to date from the store's ordered log: catches up in pages
 * (yielding between pages so the API keeps answering), then follows live through a
 * subscription. Never driven by an in-memory bus. A rebuild folds a fresh projector
 * from position 0 beside the live one, which keeps answering until the new one has
 * caught up; the swap is one synchronous step.
 */
export class ProjectorRunner<P extends Projector> {
  protected current: P;
  private readonly waiters = new PositionWaiters();
  private follower: LogFollower | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  /** The next step of a checkpoint written a step at a time, when one is pending. */
  private stepTimer: NodeJS.Timeout | null = null;
  private rebuildRun: { progress: RebuildProgress; done: Promise<RebuildResult> } | null = null;
  /** When the next timed flush may run (the `now` clock). */
  private flushDueAt = 0;
  /** The timed flushes giving way to another holder of the write lock (the `now` clock). */
  private readonly giveWay = new GiveWay();

  constructor(
    protected readonly store: EventStore,
    projector: P,
    protected readonly options: ProjectorRunnerOptions = {},
  ) {
    this.current = projector;
  }

  get projector(): P {
    return this.current;
  }

  get position(): number {
    return this.current.position;
  }

  /** What a rebuild under way has done so far, or null. */
  get rebuilding(): RebuildProgress | null {
    return this.rebuildRun ? { ...this.rebuildRun.progress } : null;
  }

  start(): void {
    if (this.follower) return;
    this.stopped = false;
    // The shared resubscription mechanism: catch up in pages, then follow live, and on any
    // failure or end start again from the projector's own position.
    this.follower = new LogFollower(this.store, {
      subscriber: this.current.name,
      checkpoint: () => this.current.position,
      catchUp: () => this.catchUpInPages(),
      handlePage: (events) => {
        this.current.applyPage(events);
        this.advanced();
      },
      onRestart: this.options.onRestart ?? ((restart) => restart.reason === 'error' && this.options.onError?.(restart.error)),
      initialDelayMs: this.options.retryMs ?? 1_000,
      minPageIntervalMs: this.options.minPageIntervalMs,
      someoneWaits: () => this.waiters.waiting,
    });
    this.follower.start();
    this.timer = setInterval(() => this.flushIfDue(), this.options.flushEveryMs ?? 5_000);
    this.timer.unref();
  }

  /** Resolves true once the projector has folded `position`, false after `timeoutMs`. */
  waitFor(position: number, timeoutMs: number): Promise<boolean> {
    if (position > this.current.position) this.follower?.hurry();
    return this.waiters.wait(position, this.current.position, timeoutMs);
  }

  /** Catches up to the store's head as it is now. */
  async catchUp(timeoutMs = 60_000): Promise<boolean> {
    return this.waitFor(await this.store.headPosition(), timeoutMs);
  }

  /** Checkpoints now (a graceful stop, the end of a start's catch-up), waiting for the write lock; the next timed one waits for CHECKPOINT_SHARE after it. */
  flush(): void {
    this.flushNow({ wait: true }, this.now());
  }

  private flushNow(options: FlushOptions, began: number): void {
    let saved = true;
    try {
      saved = this.current.flush(options);
    } catch (error) {
      this.options.onError?.(error);
    }
    this.giveWay.tried(saved, began);
    if (!saved) {
      // Another connection holds the write lock: the next tick tries again.
      this.options.onCheckpointDeferred?.();
      return;
    }
    const stepping = options.step === true && this.current.checkpointWorkPending?.() === true;
    const now = this.now();
    this.flushDueAt = began + (now - began) / (stepping ? CHECKPOINT_STEP_SHARE : CHECKPOINT_SHARE);
    if (stepping && !this.stopped && this.stepTimer === null) {
      this.stepTimer = setTimeout(
        () => {
          this.stepTimer = null;
          this.flushIfDue();
        },
        // A millisecond past due: a timer firing at the due time itself may find it not yet due.
        Math.max(0, this.flushDueAt - now) + 1,
      );
      this.stepTimer.unref();
    }
  }

  /**
   * A timed flush, unless the last one was slow enough that this one would overrun
   * CHECKPOINT_SHARE. It gives way to another writer holding the write lock (it runs on the
   * event loop, which SQLite's busy handler would stop), unless it has given way for
   * MAX_GIVE_WAY_MS already.
   */
  private flushIfDue(): void {
    const now = this.now();
    if (now < this.flushDueAt) return;
    this.flushNow({ wait: this.giveWay.mustWait(now), step: true }, now);
  }

  private now(): number {
    return this.options.now ? this.options.now() : performance.now();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.stepTimer) clearTimeout(this.stepTimer);
    this.stepTimer = null;
    await this.follower?.stop();
    await this.rebuildRun?.done.catch(() => undefined);
    this.waiters.releaseAll();
    this.flush();
    this.follower = null;
  }

  /**
   * Folds `how.fresh()` from position 0 while the live projector keeps answering, and
   * swaps it in once it has caught up with the live one. One rebuild at a time.
   */
  rebuild(how: ProjectorRebuild<P>, onProgress?: (progress: RebuildProgress) => void): Promise<RebuildResult> {
    if (this.rebuildRun) throw new RebuildInProgressError(`${this.current.name} is already being rebuilt`);
    const progress: RebuildProgress = { startedAt: new Date(), position: 0, events: 0 };
    const began = performance.now();
    const done = this.runRebuild(how, progress, began, onProgress).finally(() => {
      this.rebuildRun = null;
    });
    this.rebuildRun = { progress, done };
    return done;
  }

  private async runRebuild(
    how: ProjectorRebuild<P>,
    progress: RebuildProgress,
    began: number,
    onProgress?: (progress: RebuildProgress) => void,
  ): Promise<RebuildResult> {
    const fresh = how.fresh();
    const pageSize = this.options.pageSize ?? DEFAULT_PAGE;
    for (;;) {
      if (this.stopped) throw new Error(`${fresh.name}: rebuild abandoned, the runner stopped`);
      const page = await this.store.readAll({ fromPosition: fresh.position, maxCount: pageSize });
      if (page.length > 0) {
        fresh.applyPage(page);
        progress.position = fresh.position;
        progress.events += page.length;
        onProgress?.({ ...progress });
        await nextTurn();
        continue;
      }
      // The live projector may have folded events appended after our last read: read them too.
      if (fresh.position < this.current.position) continue;
      how.promote(fresh);
      this.current = fresh;
      this.advanced();
      return { position: fresh.position, events: progress.events, seconds: (performance.now() - began) / 1000 };
    }
  }

  private advanced(): void {
    this.waiters.reached(this.current.position);
    this.options.onAdvance?.(this.current.position);
  }

  /** Catch up in pages (yielding between them so the API keeps answering). */
  private async catchUpInPages(): Promise<void> {
    const pageSize = this.options.pageSize ?? DEFAULT_PAGE;
    for (;;) {
      if (this.stopped) return;
      const page = await this.store.readAll({ fromPosition: this.current.position, maxCount: pageSize });
      if (page.length === 0) return;
      this.current.applyPage(page);
      this.advanced();
      await nextTurn();
    }
  }
}
