import type { RecordedEvent } from '@ledger/event-store';
import type { CheckpointStore } from './checkpoint-store';
import type { Projection } from './projection';
import type { Projector } from './projector';
import type { SnapshotWriter } from './snapshots/snapshot-writer';

export interface StateFoldOptions {
  /** Where flush() saves state and position in one row; none for a rebuild not yet promoted. */
  checkpoints?: CheckpointStore | null;
  /** Periodic snapshots for time travel, taken as the fold crosses each boundary. */
  snapshots?: SnapshotWriter | null;
  clock?: () => Date;
}

/** An in-memory projection folding the log: the state, its checkpoint, its snapshots. */
export class StateFold<State extends { position: number }> implements Projector {
  private savedPosition: number;
  private snapshotPending = false;
  private readonly options: StateFoldOptions;

  constructor(
    private readonly projection: Projection<State>,
    readonly state: State,
    options: StateFoldOptions = {},
  ) {
    this.options = { ...options };
    this.savedPosition = state.position;
  }

  get name(): string {
    return this.projection.name;
  }

  get position(): number {
    return this.state.position;
  }

  get snapshots(): SnapshotWriter | null {
    return this.options.snapshots ?? null;
  }

  applyPage(events: readonly RecordedEvent[]): void {
    const { state, projection } = this;
    const snapshots = this.options.snapshots;
    // A snapshot that failed (a full disk) is taken before anything else is folded: the
    // state is still exactly at its position, so the fold never moves past it untaken.
    if (this.snapshotPending) this.takeSnapshot();
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      const before = state.position;
      if (event.position <= before) continue;
      projection.apply(state, event);
      if (snapshots && snapshots.due(before, state.position)) {
        this.snapshotPending = true;
        this.takeSnapshot();
      }
    }
  }

  /** Whether a snapshot is owed at the current position (its write failed; retried by the next applyPage). */
  get owesSnapshot(): boolean {
    return this.snapshotPending;
  }

  private takeSnapshot(): void {
    this.options.snapshots!.take(this.state);
    this.snapshotPending = false;
  }

  /** Saves a checkpoint if the state moved since the last one. */
  flush(): void {
    const checkpoints = this.options.checkpoints;
    if (!checkpoints || this.state.position === this.savedPosition) return;
    const state = this.options.snapshots ? this.options.snapshots.unwrapped(this.state) : this.state;
    checkpoints.save(this.projection.name, this.state.position, state, (this.options.clock ?? (() => new Date()))());
    this.savedPosition = this.state.position;
  }

  /** From now on flush() saves checkpoints here (a rebuilt fold, once promoted); the next flush saves. */
  saveCheckpointsTo(checkpoints: CheckpointStore): void {
    this.options.checkpoints = checkpoints;
    this.savedPosition = -1;
  }
}
