import type Database from 'better-sqlite3';
import { ReadModelTables } from '../read-model-tables';
import { LOCKED, writeUnlessLocked } from '../write-unless-locked';
import { snapshotsOf } from './snapshot-tables';
import { entityKeysAt, SnapshotReader } from './snapshot-reader';
import type { GoneEntities } from './snapshot-rows';
import { changedChunks, changedChunksOf, insertChunks } from './snapshot-chunks';
import { RemovalPeriods } from './removal-periods';
import { snapshotStatements, type Serialised, type SnapshotStatements, type TakenSnapshot } from './taken-snapshot';
import { metaOf, TrackedState, trackersReplaced, type TrackedCollection } from './tracked-collections';

export interface SnapshotWriterOptions {
  /** Take a snapshot each time the folded position crosses a multiple of this. */
  every: number;
  /** How many of the trackers' past periods (one a snapshot) to remember the removals of (default REMOVAL_PERIODS_KEPT). */
  removalPeriodsKept?: number;
  /** At most this many entities to a chunk row (default SNAPSHOT_CHUNK_ENTITIES; the properties use a few). */
  entitiesPerChunk?: number;
  clock?: () => Date;
}

/** What the next delta is taken against: the latest snapshot this writer wrote or found written (folding through it). */
interface Base {
  generation: number;
  position: number;
}

/**
 * Takes the periodic snapshots of an in-memory projection as it folds. Positions are
 * fixed by the log (the first event at or past each multiple of `every`), so every
 * writer folding the same log takes the same snapshots with the same content: a server
 * and a CLI rebuild may both write one generation, and a snapshot someone else already
 * wrote is kept as it is. The one exception: a fold on the event loop takes a snapshot
 * that gave way to another holder of the write lock a page or a tick later, where the
 * fold is then (StateFold's `snapshotsWait`); time travel only needs one at or before
 * the point it asks for.
 *
 * A delta stores the entities the fold reported changed since the previous snapshot
 * (TrackedCollection; an entity found in the state when tracking began counts as changed at
 * its `lastPosition`, or, without one, is stored every time until reported) and the keys of
 * those removed. A keyframe stores every entity; one is written whenever the previous
 * snapshot cannot serve as a base (none yet, or a collection replaced wholesale).
 */
export class SnapshotWriter {
  private readonly tables: ReadModelTables;
  private readonly name: string;
  private base: Base | null = null;
  private prepared: SnapshotStatements | null = null;
  private tracked: TrackedState | null = null;
  private trackedState: object | null = null;
  /** The trackers in place when the base was taken: a different set means a collection was replaced. */
  private baseCollections = new Map<string, TrackedCollection>();
  /** The removals the trackers reported, by period, with the same trackers as baseCollections. */
  private readonly removals: RemovalPeriods;
  /** Who writes the snapshots taken from now on instead of this writer (handOff). */
  private handedTo: ((snapshot: TakenSnapshot) => void) | null = null;
  /** The entity keys of a snapshot this writer did not take, read ahead (prefetchBase). */
  private prefetched: { generation: number; position: number; keys: Map<string, Set<string>> } | null = null;

  /**
   * `generation`: write into this generation (a rebuild's new one); 'current': into
   * whichever generation is current when each snapshot is taken (the live projection).
   */
  constructor(
    private readonly db: Database.Database,
    private readonly projectionName: string,
    private readonly options: SnapshotWriterOptions,
    private generation: number | 'current',
  ) {
    this.tables = new ReadModelTables(db);
    this.name = snapshotsOf(projectionName);
    this.removals = new RemovalPeriods(options.removalPeriodsKept);
    // A new generation has its tables from the start, so promoting it early never leaves readers without them.
    if (generation !== 'current') this.statementsFor(generation);
  }

  /** From now on, write into whichever generation is current (a rebuild's writer, once promoted). */
  followCurrent(): void {
    this.generation = 'current';
  }

  /**
   * From now on, each snapshot taken is handed, all its rows serialised, to `write` (the
   * rebuild's audit thread, which writes it between its own pages) instead of written here,
   * until takeBack(). Only for a new generation that this writer alone takes snapshots of.
   */
  handOff(write: (snapshot: TakenSnapshot) => void): void {
    if (this.generation === 'current') throw new Error(`${this.name}: only a writer of its own new generation hands its snapshots off`);
    this.handedTo = write;
  }

  /** Writes the snapshots taken from now on here again (once whoever they were handed to has written all of them). */
  takeBack(): void {
    this.handedTo = null;
  }

  /** Tracks the collections of `state` from now on (TrackedState, fed by its fold's reports), so snapshots find changes cheaply. */
  track(state: object): void {
    this.tracked = new TrackedState(state);
    this.trackedState = state;
    this.base = null;
    const position = (state as { position?: unknown }).position;
    this.removals.restart(typeof position === 'number' ? position : null);
    this.baseCollections = new Map(this.tracked.collections());
    // The trackers' first period starts here, where the removals' restart says it does: a tracker
    // records removals only for a reader that has taken some, so a key removed before the
    // first snapshot went unrecorded, and a delta against a base another writer took after
    // this point kept it.
    for (const collection of this.baseCollections.values()) collection.takeRemoved();
  }

  /** The tracking of `state`'s collections, begun now if this writer does not track it yet (the fold's checkpoints share it). */
  tracking(state: object): TrackedState {
    if (this.trackedState !== state || !this.tracked) this.track(state);
    return this.tracked!;
  }

  /**
   * Reads now the entity keys of the current generation's latest snapshot, which the first
   * snapshot this writer takes is a delta against (it knows which keys are gone since only
   * by comparing). On a big ledger that read takes seconds: a server does it while it starts
   * rather than in the middle of serving. Nothing is created; a snapshot written by someone
   * else meanwhile makes take() read the keys of that one instead.
   */
  prefetchBase(): void {
    this.prefetched = new SnapshotReader(this.db, this.projectionName).newestKeys();
  }

  /** Whether folding from `before` to `after` crossed a snapshot boundary. */
  due(before: number, after: number): boolean {
    return Math.floor(after / this.options.every) > Math.floor(before / this.options.every);
  }

  /**
   * Takes the snapshot of `state` now. With `wait: false`, takes none and answers false if
   * another connection holds the write lock (writeUnlessLocked): the fold takes it at a
   * later page instead of stopping the event loop (StateFold). A writer that hands its
   * snapshots off (handOff) hands it over instead, and answers true.
   */
  take(state: { position: number }, options: { wait?: boolean } = {}): boolean {
    if (this.trackedState !== state) this.track(state);
    if (this.handedTo !== null) {
      if (this.base?.position !== state.position) this.handedTo(this.serialiseAll(state));
      return true;
    }
    // Into a rebuild's generation, the next snapshot is almost always a delta against this
    // writer's own last one (or the first keyframe): its entities are serialised before the
    // transaction opens, so the write lock, which the rebuild's audit-index thread waits on,
    // is held for the inserts only. The transaction still decides, and serialises afresh if
    // the table says otherwise.
    const ahead = this.generation === 'current' ? null : this.serialise(state.position, this.generation);
    try {
      return writeUnlessLocked(this.db, () => this.write(state, ahead), { wait: options.wait !== false }) !== LOCKED;
    } catch (error) {
      // The write rolled back, but it drained the trackers' removals and may have created
      // tables that are gone again: forget the base and the statements, so the next
      // snapshot is taken against what the disk holds (a delta on the base's keys, read, or a keyframe).
      this.base = null;
      this.prepared = null;
      this.removals.restart(null);
      throw error;
    }
  }

  private write(state: { position: number }, ahead: Serialised | null): void {
    const generation = this.targetGeneration();
    const statements = this.statementsFor(generation);
    const position = state.position;
    const collections = this.tracked!.collections();
    if (this.base?.generation !== generation) this.base = null;
    // Read ahead for this writer's first snapshot only, whatever kind it turns out to be.
    const prefetched = this.prefetched;
    this.prefetched = null;

    if (statements.exists.get(position)) {
      // Someone folding the same log took it already, with the same content.
      this.drain(collections, position);
      this.baseAt(generation, position, collections);
      return;
    }
    const latest = statements.latestBefore.get(position)!.latest;
    const keyframe = latest === null || this.replaced(collections);
    // The keys gone since the base (the generation's latest snapshot) are those the trackers
    // saw go, when every removal since it is known: their last drain is no later than the
    // base, or the periods kept since reach back to it (a CLI rebuild's generation promoted
    // under the server, which took snapshots of its own meanwhile), whoever wrote the base
    // (all fold the same log), and no collection was replaced since. A NULL for a key the
    // base did not hold changes nothing. Else they are the base's keys the state lacks, read
    // from the table: on a big ledger, seconds of the event loop.
    const trackersKnow = this.removals.knownSince(latest!);
    const goneTracked = !keyframe && trackersKnow && !trackersReplaced(this.baseCollections, collections);
    const baseKeys =
      keyframe || goneTracked
        ? null
        : prefetched?.generation === generation && prefetched.position === latest
          ? prefetched.keys
          : entityKeysAt(this.db, statements.names, latest!);
    // Each collection's keys gone since the base; every tracker starts a new period.
    const gone: GoneEntities = new Map();
    const removedSinceBase = goneTracked ? this.removals.removedSince(latest!) : null;
    for (const [field, removed] of this.drain(collections, position)) {
      const collection = collections.get(field)!;
      if (removedSinceBase)
        gone.set(
          field,
          [...new Set([...(removedSinceBase.get(field) ?? []), ...removed])].filter((key) => !collection.has(key)),
        );
      else if (baseKeys)
        gone.set(
          field,
          [...(baseKeys!.get(field) ?? [])].filter((key) => !collection.has(key)),
        );
    }
    // A collection the base had and the state no longer has: every key it held is gone.
    if (baseKeys) for (const [field, keys] of baseKeys) if (!collections.has(field)) gone.set(field, [...keys]);
    const since = keyframe ? null : latest!;
    const changed = ahead?.position === position && ahead.since === since ? ahead.changed : null;
    insertChunks(
      statements.insertChunk,
      position,
      collections.keys(),
      (field) => changed?.get(field) ?? (collections.has(field) ? changedChunks(collections.get(field)!, since, this.options.entitiesPerChunk) : []),
      gone,
    );
    statements.insertSnapshot.run(position, keyframe ? 1 : 0, this.meta(state, collections), this.now());
    this.tables.advance(this.name, generation, position);
    this.baseAt(generation, position, collections);
  }

  /** The next snapshot is a delta against the one at `position`: the collections' logs need nothing older for it. */
  private baseAt(generation: number, position: number, collections: Map<string, TrackedCollection>): void {
    this.base = { generation, position };
    this.baseCollections = new Map(collections);
    for (const collection of collections.values()) collection.keepFrom('snapshots', position);
  }

  /**
   * Starts every tracker's new period at `position`: answers the removals of the one that
   * ends, and keeps them (RemovalPeriods) for a base older than this drain.
   */
  private drain(collections: Map<string, TrackedCollection>, position: number): Map<string, string[]> {
    const removed = new Map<string, string[]>();
    for (const [field, collection] of collections) removed.set(field, collection.takeRemoved());
    this.removals.ended(position, removed, !trackersReplaced(this.baseCollections, collections));
    return removed;
  }

  /** Whether a collection was replaced wholesale (or one came or went) since the base was taken. */
  private replaced(collections: Map<string, TrackedCollection>): boolean {
    return this.base !== null && trackersReplaced(this.baseCollections, collections);
  }

  /** The entities of a fixed generation's next snapshot, serialised against the base write() will most likely find. */
  private serialise(position: number, generation: number): Serialised {
    const collections = this.tracked!.collections();
    const since = this.base?.generation === generation && !this.replaced(collections) ? this.base.position : null;
    return { position, since, changed: changedChunksOf(collections, since, this.options.entitiesPerChunk) };
  }

  /** All of a handed-off snapshot's rows, against the previous one taken; it becomes the base. */
  private serialiseAll(state: { position: number }): TakenSnapshot {
    const generation = this.generation as number;
    const collections = this.tracked!.collections();
    const serialised = this.serialise(state.position, generation);
    const gone: GoneEntities = new Map();
    for (const [field, removed] of this.drain(collections, state.position)) if (serialised.since !== null) gone.set(field, removed);
    this.baseAt(generation, state.position, collections);
    return { ...serialised, gone, meta: this.meta(state, collections), takenAt: this.now() };
  }

  /** The snapshot row's `meta`: the state's plain fields and the names of its collections. */
  private meta(state: { position: number }, collections: Map<string, TrackedCollection>): string {
    return JSON.stringify(metaOf(state, collections));
  }

  private now(): string {
    return (this.options.clock ?? (() => new Date()))().toISOString();
  }

  private targetGeneration(): number {
    if (this.generation !== 'current') return this.generation;
    const current = this.tables.current(this.name);
    if (current) return current.generation;
    // The first snapshot ever: an empty generation, current at once.
    const first = this.tables.allocate(this.name);
    this.db.prepare('UPDATE read_model_tables SET current = 1 WHERE name = ? AND generation = ?').run(this.name, first);
    return first;
  }

  private statementsFor(generation: number): SnapshotStatements {
    if (this.prepared?.generation !== generation) this.prepared = snapshotStatements(this.db, this.projectionName, generation);
    return this.prepared;
  }
}
