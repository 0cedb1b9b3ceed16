import { LogFollower, type EventStore, type RecordedEvent, type SubscriptionRestart } from '@ledger/event-store';
import type { CheckpointStore } from '../runtime/checkpoint-store';
import { GiveWay, LOCKED, writeUnlessLocked } from '../runtime/write-unless-locked';
import { PositionWaiters } from '../runtime/position-waiters';
import { cascadeStep } from './cascade-step';
import { initialCascadeState, type CascadeRelease, type CascadeState } from './cascade-state';

/** Carries out one release (a ReleaseLease command on the lease's ip stream). Must be idempotent. */
export interface LeaseReleaser {
  release(release: CascadeRelease, cause: RecordedEvent): Promise<void>;
}

export interface LeaseCascadeOptions {
  /** Checkpoint row name; bump the suffix when CascadeState's shape changes. */
  name?: string;
  /** Save the checkpoint at least this often while events that need no release flow. */
  checkpointEveryMs?: number;
  /** First delay before retrying a failed release; doubles up to 5 s. */
  retryDelayMs?: number;
  clock?: () => Date;
  onError?: (error: unknown, context: { release?: CascadeRelease; position: number }) => void;
  /** Told each time the log subscription is resubscribed (dropped, failed or ended): log it, count it. */
  onRestart?: (restart: SubscriptionRestart) => void;
  /** First wait before resubscribing (default 100 ms, doubling while nothing gets through). */
  resubscribeDelayMs?: number;
  /** Told each time the timer's checkpoint gave way to another writer holding the read-model file's write lock. */
  onCheckpointDeferred?: () => void;
}

export const LEASE_CASCADE_CHECKPOINT = 'lease-cascade.v1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the lease cascade: from its own checkpoint, follows the ordered log, and for
 * each event carries out the releases cascadeStep asks for before moving on.
 *
 * Crash safety: a checkpoint (state and position in one row) is saved only between
 * events, after every release of the events before it was done. A crash at any point
 * loses at most the progress since the last checkpoint; after a restart those events
 * are stepped again and their releases re-sent, which the lease decider turns into
 * no-ops for leases already released. So the job is always finished, and no lease is
 * released twice or taken from an owner that holds it now.
 * A release that fails (the store is away) is retried, never skipped.
 */
export class LeaseCascadeRunner {
  private state: CascadeState;
  private follower: LogFollower | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly waiters = new PositionWaiters();
  private savedPosition: number;
  /** True while an event's releases are being carried out: no checkpoint may be taken then. */
  private midEvent = false;
  private halted = false;
  private readonly name: string;
  /** The timer's checkpoints giving way to another holder of the write lock (performance.now). */
  private readonly giveWay = new GiveWay();

  constructor(
    private readonly store: EventStore,
    private readonly checkpoints: CheckpointStore,
    private readonly releaser: LeaseReleaser,
    private readonly options: LeaseCascadeOptions = {},
  ) {
    this.name = options.name ?? LEASE_CASCADE_CHECKPOINT;
    this.state = checkpoints.load<CascadeState>(this.name)?.state ?? initialCascadeState();
    this.savedPosition = this.state.position;
  }

  /** Position of the last event fully processed (its releases done). */
  get position(): number {
    return this.midEvent ? this.savedPosition : this.state.position;
  }

  /**
   * Follows the log through the shared LogFollower: a dropped or ended subscription is
   * resubscribed from the last event fully processed, so leases of ended owners are never
   * left orphaned by a subscription that died quietly.
   */
  start(): void {
    if (this.follower || this.halted) return;
    this.follower = new LogFollower(this.store, {
      subscriber: this.name,
      checkpoint: () => this.state.position,
      handle: (event) => this.step(event),
      onRestart: this.options.onRestart,
      initialDelayMs: this.options.resubscribeDelayMs,
    });
    this.follower.start();
    this.timer = setInterval(() => this.checkpointOrReport(), this.options.checkpointEveryMs ?? 1_000);
    this.timer.unref();
  }

  /** Resolves true once every event up to `position` is processed, false after `timeoutMs`. */
  waitFor(position: number, timeoutMs: number): Promise<boolean> {
    return this.waiters.wait(position, this.position, timeoutMs);
  }

  async catchUp(timeoutMs = 60_000): Promise<boolean> {
    return this.waitFor(await this.store.headPosition(), timeoutMs);
  }

  /** Graceful: finishes nothing new, saves the checkpoint if no event is half done. */
  async stop(): Promise<void> {
    this.halted = true;
    if (this.timer) clearInterval(this.timer);
    await this.follower?.stop();
    this.waiters.releaseAll();
    this.checkpointOrReport({ wait: true });
  }

  /**
   * For tests: dies on the spot, as a killed process would. Nothing more is saved; an
   * in-flight release may still land, exactly as it could in a real crash.
   */
  crash(): void {
    this.halted = true;
    this.midEvent = true; // freeze: the checkpoint on disk is all that survives
    if (this.timer) clearInterval(this.timer);
    void this.follower?.stop();
    this.waiters.releaseAll();
  }

  /**
   * Saves the checkpoint if the cascade moved since the last one. With `wait: false`, saves
   * nothing and answers false if another connection holds the read-model file's write lock
   * (writeUnlessLocked).
   */
  checkpoint(options: { wait?: boolean } = {}): boolean {
    if (this.midEvent || this.state.position === this.savedPosition) return true;
    const position = this.state.position;
    const saved = writeUnlessLocked(
      this.checkpoints.db,
      () => this.checkpoints.save(this.name, position, this.state, (this.options.clock ?? (() => new Date()))()),
      { wait: options.wait !== false },
    );
    if (saved === LOCKED) return false;
    this.savedPosition = position;
    return true;
  }

  /**
   * The timer's checkpoint. It runs on the event loop, so it gives way to another writer
   * holding the write lock (tried again at the next tick), unless it has given way for
   * MAX_GIVE_WAY_MS already. One that cannot be written (a full disk) is reported and tried
   * again later: the releases it covers are done, and after a crash they would be re-sent
   * as no-ops, so a failed save must neither stop the cascade nor move the saved position.
   */
  private checkpointOrReport(options: { wait: boolean } = { wait: false }): void {
    const now = performance.now();
    try {
      const saved = this.checkpoint({ wait: options.wait || this.giveWay.mustWait(now) });
      this.giveWay.tried(saved, now);
      if (!saved) this.options.onCheckpointDeferred?.();
    } catch (error) {
      this.options.onError?.(error, { position: this.state.position });
    }
  }

  /** One event: its releases carried out before the next event is looked at. */
  private async step(event: RecordedEvent): Promise<void> {
    if (this.halted) return;
    const releases = cascadeStep(this.state, event);
    if (releases.length > 0) {
      this.midEvent = true;
      for (const release of releases) {
        if (!(await this.releaseUntilDone(release, event))) return; // halted: leave the checkpoint as it was
      }
      // No checkpoint here: the timer takes one at most every checkpointEveryMs. The state
      // is every live owner's leases, written whole; saved after each such event, a cascade
      // catching up on a big log spent half the event loop writing it.
      this.midEvent = false;
    }
    this.waiters.reached(this.state.position);
  }

  private async releaseUntilDone(release: CascadeRelease, cause: RecordedEvent): Promise<boolean> {
    let delay = this.options.retryDelayMs ?? 100;
    for (;;) {
      if (this.halted) return false;
      try {
        await this.releaser.release(release, cause);
        return !this.halted;
      } catch (error) {
        this.options.onError?.(error, { release, position: cause.position });
        await sleep(delay);
        delay = Math.min(delay * 2, 5_000);
      }
    }
  }
}
