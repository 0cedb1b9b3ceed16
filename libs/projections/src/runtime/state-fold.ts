import type { RecordedEvent } from '@ledger/event-store';
import type { CheckpointStore } from './checkpoint-store';
import type { Projection } from './projection';
import type { FlushOptions, Projector } from './projector';
import { changedEntitiesOf, type ChangedEntities, type GoneEntities } from './snapshots/snapshot-rows';
import type { SnapshotWriter } from './snapshots/snapshot-writer';
import { metaOf, TrackedState, trackersReplaced, type TrackedCollection } from './snapshots/tracked-collections';
import { GiveWay, LOCKED, writeUnlessLocked } from './write-unless-locked';

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
  clock?: () => Date;
}

/**
 * An in-memory projection folding the log: the state, its checkpoint, its snapshots.
 * Its checkpoint is saved entity by entity: each flush writes the entities changed since
 * the last one (their `lastPosition` moved past it, as snapshots find them) and removes
 * those gone, so on a big ledger a checkpoint no longer stops the event loop for the
 * seconds that writing the whole state takes.
 */
export class StateFold<State extends { position: number }> implements Projector {
  private savedPosition: number;
  private snapshotPending = false;
  /** A snapshot due that gives way to another holder of the write lock (the clock, in ms). */
  private readonly snapshotGiveWay = new GiveWay();
  private readonly options: StateFoldOptions;
  /** The state's tracking when no snapshot writer tracks it (which is then shared). */
  private ownTracking: TrackedState | null = null;
  /** The collections' trackers when the last checkpoint was saved: its base for the next delta; null: the next save is whole. */
  private savedCollections: Map<string, TrackedCollection> | null = null;
  /** The next flush saves the state whole, as one text (saveCheckpointsTo's `whole`). */
  private wholeNext = false;
  /** The state serialised ahead of that save (serialiseCheckpoint), at the position it was taken. */
  private serialised: { position: number; json: string } | null = null;

  constructor(
    private readonly projection: Projection<State>,
    readonly state: State,
    options: StateFoldOptions = {},
  ) {
    this.options = { ...options };
    this.savedPosition = options.checkpoints && options.stored === 'whole' ? -1 : state.position;
    if (options.checkpoints && options.stored === 'entities') this.baseNextDeltaHere(this.collections());
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
    // state is still exactly at its position, so the fold never moves past it untaken. One
    // that gave way to another holder of the write lock is taken where the fold is now.
    if (this.snapshotPending || this.snapshotGiveWay.owed) this.takeSnapshot();
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

  /**
   * Takes the snapshot due. With `snapshotsWait: false` (a fold on the event loop), one that
   * finds the write lock taken is owed: tried again at each page, where the fold is then,
   * until it is written or has been owed for MAX_GIVE_WAY_MS, when it waits.
   */
  private takeSnapshot(): void {
    const now = this.now().getTime();
    const taken = this.options.snapshots!.take(this.state, { wait: this.options.snapshotsWait !== false || this.snapshotGiveWay.mustWait(now) });
    this.snapshotPending = false;
    this.snapshotGiveWay.tried(taken, now);
    if (!taken) this.options.onSnapshotDeferred?.();
  }

  /**
   * Takes a snapshot owed, then saves a checkpoint if the state moved since the last one:
   * what changed since, or (the first time) all of it. With `wait: false`, saves nothing
   * and answers false if another connection holds the read-model file's write lock
   * (writeUnlessLocked): the changes stay tracked for the next try.
   */
  flush(options: FlushOptions = {}): boolean {
    // A snapshot owed (it gave way to the lock) is not left waiting for the next event.
    if (this.snapshotGiveWay.owed) this.takeSnapshot();
    const checkpoints = this.options.checkpoints;
    if (!checkpoints || this.state.position === this.savedPosition) return true;
    let saved: (() => void) | typeof LOCKED;
    try {
      saved = writeUnlessLocked(checkpoints.db, () => (this.wholeNext ? this.writeWhole(checkpoints) : this.writeEntities(checkpoints)), {
        wait: options.wait !== false,
      });
    } catch (error) {
      // The removals taken are not stored: the next save is whole.
      this.savedCollections = null;
      throw error;
    }
    if (saved === LOCKED) return false;
    saved();
    return true;
  }

  /** Writes the checkpoint by entities, in the open transaction; answers what its commit makes true. */
  private writeEntities(checkpoints: CheckpointStore): () => void {
    const collections = this.collections();
    const full = this.savedCollections === null || trackersReplaced(this.savedCollections, collections);
    const gone: GoneEntities = new Map();
    for (const [field, collection] of collections) {
      const removed = collection.takeRemoved('checkpoints');
      if (!full) gone.set(field, removed);
    }
    const entities = (since: number | null): ChangedEntities => changedEntitiesOf(collections, since);
    const meta = metaOf(this.state, collections);
    const savedAt = this.now();
    const { name } = this.projection;
    const position = this.state.position;
    const since = full ? null : this.savedPosition;
    const saved = checkpoints.saveEntities(name, { position, meta, full, since, changed: entities(since), gone }, savedAt);
    // Someone else saved this checkpoint since (a CLI rebuild's promotion): a delta over theirs would mix two states.
    if (!saved) checkpoints.saveEntities(name, { position, meta, full: true, since: null, changed: entities(null), gone: new Map() }, savedAt);
    return () => {
      this.savedPosition = position;
      this.savedCollections = new Map(collections);
    };
  }

  /**
   * Serialises the state now, for the next flush() to save whole (saveCheckpointsTo's
   * `whole`) if it has not moved by then: a CLI rebuild does it while its other thread
   * finishes, so its final transaction only writes the text (on a big ledger the state is a
   * hundred megabytes).
   */
  serialiseCheckpoint(): void {
    this.serialised = { position: this.state.position, json: JSON.stringify(this.plainState()) };
  }

  /**
   * From now on flush() saves checkpoints here (a rebuilt fold, once promoted); the next
   * flush saves every entity, or with `whole` the state as one text: a CLI rebuild's
   * promotion, which a whole text makes 0.3-0.9 s shorter on a 1,000,000-event ledger
   * (0.3-0.4 s against 0.5-1.3 s for its 225,000 rows); the server turns it into rows when
   * it next starts.
   */
  saveCheckpointsTo(checkpoints: CheckpointStore, options: { whole?: boolean } = {}): void {
    this.options.checkpoints = checkpoints;
    this.savedPosition = -1;
    this.savedCollections = null;
    this.wholeNext = options.whole === true;
  }

  /** Writes the checkpoint as one text, in the open transaction; answers what its commit makes true. */
  private writeWhole(checkpoints: CheckpointStore): () => void {
    const position = this.state.position;
    const json = this.serialised?.position === position ? this.serialised.json : JSON.stringify(this.plainState());
    checkpoints.saveJson(this.projection.name, position, json, this.now());
    return () => {
      this.serialised = null;
      this.wholeNext = false;
      this.savedPosition = position;
    };
  }

  private now(): Date {
    return (this.options.clock ?? (() => new Date()))();
  }

  /** The state without its tracking proxies, for serialising (untracked, it has none). */
  private plainState(): State {
    return !this.options.snapshots && !this.ownTracking ? this.state : (this.tracking().plain() as State);
  }

  /** The state's tracking: the snapshot writer's, which it shares, or this fold's own. */
  private tracking(): TrackedState {
    const snapshots = this.options.snapshots;
    if (snapshots) return snapshots.tracking(this.state);
    this.ownTracking ??= new TrackedState(this.state as unknown as Record<string, unknown>);
    return this.ownTracking;
  }

  /** The state's collections, tracked. */
  private collections(): Map<string, TrackedCollection> {
    return this.tracking().collections();
  }

  /** The stored checkpoint is the state as it is now: the next delta is taken against it. */
  private baseNextDeltaHere(collections: Map<string, TrackedCollection>): void {
    for (const collection of collections.values()) collection.takeRemoved('checkpoints');
    this.savedCollections = new Map(collections);
  }
}
