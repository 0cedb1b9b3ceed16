import type { EventStore, SubscriptionRestart } from '@ledger/event-store';
import type { CheckpointStore } from './checkpoint-store';
import type { Projection } from './projection';
import { ProjectorRunner, type RebuildProgress, type RebuildResult } from './projector-runner';
import { ReadModelTables } from './read-model-tables';
import { StateFold } from './state-fold';
import { SnapshotWriter } from './snapshots/snapshot-writer';
import { snapshotsOf, snapshotTablesOf } from './snapshots/snapshot-tables';

export interface ProjectionRunnerOptions {
  /** Save a checkpoint at most this often while events flow. */
  checkpointEveryMs?: number;
  clock?: () => Date;
  onError?: (error: unknown) => void;
  /** Told of every resubscription to the log (see LogFollower). */
  onRestart?: (restart: SubscriptionRestart) => void;
  /** First wait before following the log again after a failure (a write the disk refused, a dropped subscription). */
  retryMs?: number;
  /** Take a snapshot for time travel each time the fold crosses a multiple of this position (none when absent or 0). */
  snapshotEvery?: number;
  /** Events read per page while catching up or rebuilding. */
  pageSize?: number;
  /** Told each time a timed checkpoint gave way to another writer holding the read-model file's write lock. */
  onCheckpointDeferred?: () => void;
  /** Told each time a snapshot due gave way to another writer holding the read-model file's write lock. */
  onSnapshotDeferred?: () => void;
  /** Entities a step of a timed full checkpoint save writes (default FULL_SAVE_STEP_ENTITIES). */
  fullSaveStep?: number;
}

/**
 * Entities a step of a full checkpoint save writes, on the event loop. On the 1,000,000-event
 * ledger (225,000 entities, 1.4-3 s saved whole) after a CLI rebuild beside the server, the
 * event loop's longest stall during the steps was 96-130 ms at 1,000 a step and 100-210 ms at
 * 4,000: most of a step's cost does not grow with it, so smaller steps gain little more.
 */
export const FULL_SAVE_STEP_ENTITIES = 1_000;

/**
 * Keeps one in-memory projection up to date: resumes from its checkpoint (state and
 * position in one row), catches up, then follows the log live, taking periodic
 * snapshots as it folds. `rebuildFromZero` folds a new state beside the live one and
 * swaps it in once it has caught up.
 */
export class ProjectionRunner<State extends { position: number }> extends ProjectorRunner<StateFold<State>> {
  constructor(
    store: EventStore,
    private readonly checkpoints: CheckpointStore,
    private readonly projection: Projection<State>,
    private readonly runnerOptions: ProjectionRunnerOptions = {},
  ) {
    const stored = checkpoints.load<State>(projection.name);
    const every = runnerOptions.snapshotEvery ?? 0;
    const snapshots = every > 0 ? new SnapshotWriter(checkpoints.db, projection.name, { every, clock: runnerOptions.clock }, 'current') : null;
    snapshots?.prefetchBase();
    super(
      store,
      new StateFold(projection, stored?.state ?? projection.initialState(), {
        checkpoints,
        snapshots,
        stored: stored?.savedAs,
        // On the event loop: a snapshot gives way to another writer holding the lock.
        snapshotsWait: false,
        onSnapshotDeferred: runnerOptions.onSnapshotDeferred,
        // A timed checkpoint that must save the whole state (after a CLI rebuild promoted
        // its own, or a failed save) writes it a step at a time.
        fullSaveStep: runnerOptions.fullSaveStep ?? FULL_SAVE_STEP_ENTITIES,
        clock: runnerOptions.clock,
      }),
      {
        flushEveryMs: runnerOptions.checkpointEveryMs,
        onError: runnerOptions.onError,
        onRestart: runnerOptions.onRestart,
        retryMs: runnerOptions.retryMs,
        pageSize: runnerOptions.pageSize,
        onCheckpointDeferred: runnerOptions.onCheckpointDeferred,
      },
    );
  }

  get state(): State {
    return this.current.state;
  }

  checkpoint(): void {
    this.flush();
  }

  /** Folds a new state (and new snapshots) from position 0 while this one keeps answering, then swaps. */
  rebuildFromZero(onProgress?: (progress: RebuildProgress) => void): Promise<RebuildResult> {
    const { checkpoints, projection } = this;
    const every = this.runnerOptions.snapshotEvery ?? 0;
    const tables = new ReadModelTables(checkpoints.db);
    let generation = 0;
    return this.rebuild(
      {
        fresh: () => {
          generation = every > 0 ? tables.allocate(snapshotsOf(projection.name)) : 0;
          const snapshots = generation > 0 ? new SnapshotWriter(checkpoints.db, projection.name, { every, clock: this.runnerOptions.clock }, generation) : null;
          return new StateFold(projection, projection.initialState(), {
            snapshots,
            snapshotsWait: false,
            onSnapshotDeferred: this.runnerOptions.onSnapshotDeferred,
            fullSaveStep: this.runnerOptions.fullSaveStep ?? FULL_SAVE_STEP_ENTITIES,
            clock: this.runnerOptions.clock,
          });
        },
        promote: (fresh) => {
          if (generation > 0) {
            tables.promote(snapshotsOf(projection.name), generation, snapshotTablesOf(projection.name));
            fresh.snapshots?.followCurrent();
          }
          fresh.saveCheckpointsTo(checkpoints);
          fresh.flush();
        },
      },
      onProgress,
    );
  }
}
