import type { AllSubscription, EventStore } from '@ledger/event-store';
import type { CheckpointStore } from './checkpoint-store';
import type { Projection } from './projection';
import { PositionWaiters } from './position-waiters';

export interface ProjectionRunnerOptions {
  /** Save a checkpoint at most this often while events flow. */
  checkpointEveryMs?: number;
  clock?: () => Date;
  onError?: (error: unknown) => void;
}

/**
 * Keeps one projection up to date: resumes from its checkpoint, catches up, then
 * follows the log live. Driven by the store's ordered log, never by an in-memory bus.
 */
export class ProjectionRunner<State extends { position: number }> {
  private current: State;
  private subscription: AllSubscription | null = null;
  private loop: Promise<void> | null = null;
  private readonly waiters = new PositionWaiters();
  private savedPosition = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly checkpoints: CheckpointStore,
    private readonly projection: Projection<State>,
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    const stored = checkpoints.load<State>(projection.name);
    this.current = stored?.state ?? projection.initialState();
    this.savedPosition = this.current.position;
  }

  get state(): State {
    return this.current;
  }

  get position(): number {
    return this.current.position;
  }

  start(): void {
    if (this.loop) return;
    this.subscription = this.store.subscribeToAll({ fromPosition: this.current.position });
    const subscription = this.subscription;
    this.loop = (async () => {
      for await (const event of subscription) {
        this.projection.apply(this.current, event);
        this.waiters.reached(this.current.position);
      }
    })().catch((error) => this.options.onError?.(error));
    this.timer = setInterval(() => this.checkpoint(), this.options.checkpointEveryMs ?? 5_000);
    this.timer.unref();
  }

  /** Resolves true once the projection has folded `position`, false after `timeoutMs`. */
  waitFor(position: number, timeoutMs: number): Promise<boolean> {
    return this.waiters.wait(position, this.current.position, timeoutMs);
  }

  /** Catches up to the store's head as it is now (used at start-up and by tools). */
  async catchUp(timeoutMs = 60_000): Promise<boolean> {
    return this.waitFor(await this.store.headPosition(), timeoutMs);
  }

  checkpoint(): void {
    if (this.current.position === this.savedPosition) return;
    this.checkpoints.save(this.projection.name, this.current.position, this.current, (this.options.clock ?? (() => new Date()))());
    this.savedPosition = this.current.position;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.subscription?.close();
    await this.loop;
    this.waiters.releaseAll();
    this.checkpoint();
    this.loop = null;
  }
}
