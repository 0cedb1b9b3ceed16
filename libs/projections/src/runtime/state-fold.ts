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
  /** The state serialised ahead of a flush (serialiseCheckpoint), at the position it was taken. */
  private serialised: { position: number; json: string } | null = null;

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
    const json = this.serialised?.position === this.state.position ? this.serialised.json : JSON.stringify(this.plain());
    this.serialised = null;
    checkpoints.saveJson(this.projection.name, this.state.position, json, (this.options.clock ?? (() => new Date()))());
    this.savedPosition = this.state.position;
  }

  /**
   * Serialises the checkpoint now, for the next flush() to save if the state has not moved
   * by then: a rebuild does it while its other thread finishes, so its final transaction
   * only writes the text (on a big ledger the state is a hundred megabytes of JSON).
   */
  serialiseCheckpoint(): void {
    this.serialised = { position: this.state.position, json: JSON.stringify(this.plain()) };
  }

  private plain(): State {
    return this.options.snapshots ? this.options.snapshots.unwrapped(this.state) : this.state;
  }

  /** From now on flush() saves checkpoints here (a rebuilt fold, once promoted); the next flush saves. */
  saveCheckpointsTo(checkpoints: CheckpointStore): void {
    this.options.checkpoints = checkpoints;
    this.savedPosition = -1;
  }
}
