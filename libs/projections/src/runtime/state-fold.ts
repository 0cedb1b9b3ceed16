import type { RecordedEvent } from '@ledger/event-store';
import type { CheckpointStore } from './checkpoint-store';
import { UNTRACKED, type CollectionChanges } from './collection-changes';
import type { Projection } from './projection';
import type { FlushOptions, Projector } from './projector';
import { changedEntitiesOf, type ChangedEntities, type GoneEntities } from './snapshots/snapshot-rows';
import type { SnapshotWriter } from './snapshots/snapshot-writer';
import { metaOf, TrackedState, trackersReplaced, type TrackedCollection } from './snapshots/tracked-collections';
import { COMMITTED, keepFrom, stagedSaveStep, type StagedSave } from './staged-checkpoint-save';
import type { StateFoldOptions } from './state-fold-options';
import { GiveWay, LOCKED, writeUnlessLocked } from './write-unless-locked';
import { wholeText } from './whole-text';

export type { StateFoldOptions } from './state-fold-options';

/**
 * An in-memory projection folding the log: the state, its checkpoint, its snapshots. Each flush
 * saves the entities changed since the last (CollectionChanges) and removes those gone, so a
 * big ledger's checkpoint never stops the event loop for the seconds a whole state's write takes.
 */
export class StateFold<State extends { position: number }> implements Projector {
  private savedPosition: number;
  private snapshotPending = false;
  /** A snapshot due that gives way to another holder of the write lock (performance.now(), in ms: how long is an interval, not a date). */
  private readonly snapshotGiveWay = new GiveWay();
  private readonly options: StateFoldOptions;
  /** The state's tracking when no snapshot writer tracks it (which is then shared). */
  private ownTracking: TrackedState | null = null;
  /** The collections' trackers when the last checkpoint was saved: its base for the next delta; null: the next save is whole. */
  private savedCollections: Map<string, TrackedCollection> | null = null;
  /** The next flush saves the state whole, as one text (saveCheckpointsTo's `whole`). */
  private wholeNext = false;
  /** The state serialised ahead of that save (serialiseCheckpoint), at the position it was taken. */
  private serialised: { position: number; json: string | null } | null = null;
  /** A full save under way, a step at a time. */
  private staged: StagedSave | null = null;
  /** Whether row sets this name no longer uses may remain (not known at the start): timed steps delete them. */
  private garbagePending = true;

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
    const changes = this.changes();
    // A snapshot that failed (a full disk) is taken before anything else is folded: the
    // state is still exactly at its position, so the fold never moves past it untaken. One
    // that gave way to another holder of the write lock is taken where the fold is now.
    if (this.snapshotPending || this.snapshotGiveWay.owed) this.takeSnapshot();
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      const before = state.position;
      if (event.position <= before) continue;
      projection.apply(state, event, changes);
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
    const now = performance.now();
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
    if (!checkpoints) return true;
    const step = options.step === true && this.options.fullSaveStep !== undefined && !this.wholeNext;
    if (step && (this.staged !== null || this.bigFullSaveDue())) return this.write(checkpoints, options, () => this.stagedStep(checkpoints));
    // A save done at once supersedes one under way: its row set is garbage.
    if (!step) this.staged = null;
    if (this.state.position === this.savedPosition) {
      return step && this.garbagePending ? this.write(checkpoints, options, () => this.deleteGarbage(checkpoints)) : true;
    }
    return this.write(checkpoints, options, () => (this.wholeNext ? this.writeWhole(checkpoints) : this.writeEntities(checkpoints, step)));
  }

  /** Whether a flush with `step` left work for the next one: a full save under way or due, or row sets to delete. */
  checkpointWorkPending(): boolean {
    if (this.options.fullSaveStep === undefined || !this.options.checkpoints) return false;
    return this.staged !== null || this.bigFullSaveDue() || this.garbagePending;
  }

  /** Runs a checkpoint write (writeUnlessLocked); a failure leaves the next save whole, as the removals it took are lost. */
  private write(checkpoints: CheckpointStore, options: FlushOptions, write: () => () => void): boolean {
    let saved: (() => void) | typeof LOCKED;
    try {
      saved = writeUnlessLocked(checkpoints.db, write, { wait: options.wait !== false });
    } catch (error) {
      this.savedCollections = null;
      this.staged = null;
      throw error;
    }
    if (saved === LOCKED) return false;
    saved();
    return true;
  }

  /** Whether the next save must be full (none yet, a collection replaced, a foreign save found) and is too big for one step. */
  private bigFullSaveDue(): boolean {
    if (this.state.position === this.savedPosition) return false;
    const collections = this.collections();
    if (this.savedCollections !== null && !trackersReplaced(this.savedCollections, collections)) return false;
    return this.tooBigForOneStep(collections);
  }

  private tooBigForOneStep(collections: Map<string, TrackedCollection>): boolean {
    let entities = 0;
    for (const collection of collections.values()) entities += collection.size;
    return entities > this.options.fullSaveStep!;
  }

  /** One step of a full save written a step at a time (stagedSaveStep), in the open transaction. */
  private stagedStep(checkpoints: CheckpointStore): () => void {
    const collections = this.collections();
    const position = this.state.position;
    const step = stagedSaveStep(checkpoints, this.projection.name, this.state, collections, this.staged, this.options.fullSaveStep!, () => this.now());
    return () => {
      const staged = step();
      if (staged !== COMMITTED) {
        this.staged = staged;
        return;
      }
      this.staged = null;
      this.savedPosition = position;
      this.savedCollections = new Map(collections);
      this.garbagePending = true;
      keepFrom(collections, position);
    };
  }

  /** Deletes a step of the row sets this name no longer uses, in the open transaction. */
  private deleteGarbage(checkpoints: CheckpointStore): () => void {
    const more = checkpoints.deleteGarbage(this.projection.name, this.options.fullSaveStep!);
    return () => {
      this.garbagePending = more;
    };
  }

  /**
   * Writes the checkpoint by entities, in the open transaction; answers what its commit
   * makes true. With `step`, a full save too big for one step is left to stagedStep, and a
   * delta also deletes a step of garbage.
   */
  private writeEntities(checkpoints: CheckpointStore, step: boolean): () => void {
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
    const delta = checkpoints.saveEntities(name, { position, meta, full, since, changed: entities(since), gone }, savedAt);
    if (!delta) {
      // Someone else saved this checkpoint since (a CLI rebuild's promotion): a delta over
      // theirs would mix two states. The whole state is saved, by steps if it is big.
      if (step && this.tooBigForOneStep(collections)) {
        return () => {
          this.savedCollections = null;
        };
      }
      checkpoints.saveEntities(name, { position, meta, full: true, since: null, changed: entities(null), gone: new Map() }, savedAt);
    }
    // A timed delta also deletes a step of the row sets no longer used.
    const more =
      delta && !full && step && this.garbagePending
        ? checkpoints.deleteGarbage(name, this.options.fullSaveStep!)
        : this.garbagePending || checkpoints.hasGarbage(name);
    return () => {
      this.savedPosition = position;
      this.savedCollections = new Map(collections);
      this.garbagePending = more;
      keepFrom(collections, position);
    };
  }

  /**
   * Serialises the state now, for the next flush() to save whole if it has not moved: a CLI
   * rebuild does it while its other thread finishes, so its final transaction only writes the
   * text (in parts). A state too long for one string (wholeText) is saved by entities instead.
   */
  serialiseCheckpoint(): void {
    const json = wholeText(this.state, this.options.wholeTextLimit);
    // V8 joins a long text's pieces when first read: here, not in the final transaction (108 MB: 0.3 s).
    json?.charCodeAt(0);
    this.serialised = { position: this.state.position, json };
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
    const json = this.serialised?.position === position ? this.serialised.json : wholeText(this.state, this.options.wholeTextLimit);
    if (json === null) {
      this.wholeNext = false;
      return this.writeEntities(checkpoints, false);
    }
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

  /**
   * Where the fold reports its changes: the state's tracking, begun now if snapshots or
   * checkpoints will want it; a fold with neither tracks nothing (a tracking begun later
   * finds each entity's `lastPosition`).
   */
  private changes(): CollectionChanges {
    return this.options.snapshots || this.options.checkpoints || this.ownTracking ? this.tracking() : UNTRACKED;
  }

  /** The state's tracking: the snapshot writer's, which it shares, or this fold's own. */
  private tracking(): TrackedState {
    const snapshots = this.options.snapshots;
    if (snapshots) return snapshots.tracking(this.state);
    this.ownTracking ??= new TrackedState(this.state);
    return this.ownTracking;
  }

  /** The state's collections, tracked. */
  private collections(): Map<string, TrackedCollection> {
    return this.tracking().collections();
  }

  /** The stored checkpoint is the state as it is now: the next delta is taken against it. */
  private baseNextDeltaHere(collections: Map<string, TrackedCollection>): void {
    for (const collection of collections.values()) collection.takeRemoved('checkpoints');
    keepFrom(collections, this.state.position);
    this.savedCollections = new Map(collections);
  }
}
