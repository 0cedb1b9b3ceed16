import type { CheckpointStore } from './checkpoint-store';
import type { SnapshotWriter } from './snapshots/snapshot-writer';

export interface StateFoldOptions {
  /** Where flush() saves state and position; none for a rebuild not yet promoted. */
  checkpoints?: CheckpointStore | null;
  /** Periodic snapshots for time travel, taken as the fold crosses each boundary. */
  snapshots?: SnapshotWriter | null;
  /**
   * How `checkpoints` holds the state given, at its position (CheckpointStore.load's
   * `savedAs`): by entities, so the first flush saves only what changed since; whole, so
   * the first flush saves it by entities, moved or not (a server started on a rebuild's
   * checkpoint turns it into rows before it serves); or not at all (absent).
   */
  stored?: 'entities' | 'whole';
  /**
   * Whether a snapshot falling due waits for the write lock another connection holds
   * (default), or, on the event loop, gives way and is taken at a later page (takeSnapshot).
   */
  snapshotsWait?: boolean;
  /** Told each time a snapshot due gave way to another holder of the write lock. */
  onSnapshotDeferred?: () => void;
  /**
   * A full save of more entities than this, by a flush with `step` (a timed one, on the
   * event loop), is written this many entities a step (stagedStep); absent: at once.
   */
  fullSaveStep?: number;
  /** The longest whole text a checkpoint is saved as (tests); V8's own cap on a string applies always. */
  wholeTextLimit?: number;
  clock?: () => Date;
}
