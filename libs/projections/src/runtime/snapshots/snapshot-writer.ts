import type Database from 'better-sqlite3';
import { ReadModelTables } from '../read-model-tables';
import { createSnapshotTables, snapshotsOf, snapshotTableNames, type SnapshotMeta, type SnapshotTableNames } from './snapshot-tables';
import { entityKeysAt } from './snapshot-reader';
import { TrackedState, type TrackedCollection } from './tracked-collections';

export interface SnapshotWriterOptions {
  /** Take a snapshot each time the folded position crosses a multiple of this. */
  every: number;
  clock?: () => Date;
}

interface Prepared {
  generation: number;
  names: SnapshotTableNames;
  exists: Database.Statement;
  latestBefore: Database.Statement;
  insertEntity: Database.Statement;
  insertSnapshot: Database.Statement;
}

/**
 * A snapshot's changed entities, serialised before its transaction opens: each collection's
 * [key, JSON] of the entities changed since `since` (every entity when null), the base
 * this writer expects the transaction to find.
 */
interface Serialised {
  position: number;
  since: number | null;
  bodies: Map<string, [key: string, body: string][]>;
}

/** What the next delta is taken against: the generation's latest snapshot, and whether this writer took it. */
interface Base {
  generation: number;
  position: number;
  /** Set when this writer wrote (or folded through) the base itself, so removals since are known from the trackers. */
  own: boolean;
}

/**
 * Takes the periodic snapshots of an in-memory projection as it folds. Positions are
 * fixed by the log (the first event at or past each multiple of `every`), so every
 * writer folding the same log takes the same snapshots with the same content: a server
 * and a CLI rebuild may both write one generation, and a snapshot someone else already
 * wrote is kept as it is.
 *
 * A delta stores the entities whose `lastPosition` moved past the previous snapshot
 * (entities without a numeric `lastPosition` are stored every time) and a NULL for each
 * one removed. A keyframe stores every entity; one is written whenever the previous
 * snapshot cannot serve as a base (none yet, or a collection replaced wholesale).
 */
export class SnapshotWriter {
  private readonly tables: ReadModelTables;
  private readonly name: string;
  private base: Base | null = null;
  private prepared: Prepared | null = null;
  private tracked: TrackedState | null = null;
  private trackedState: object | null = null;
  /** The trackers in place when the base was taken: a different set means a collection was replaced. */
  private baseCollections = new Map<string, TrackedCollection>();

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
    // A new generation has its tables from the start, so promoting it early never leaves readers without them.
    if (generation !== 'current') this.statementsFor(generation);
  }

  /** From now on, write into whichever generation is current (a rebuild's writer, once promoted). */
  followCurrent(): void {
    this.generation = 'current';
  }

  /** Watches the collections of `state` (replacing them by tracking proxies) so snapshots find changes cheaply. */
  track(state: object): void {
    this.tracked = new TrackedState(state as Record<string, unknown>);
    this.trackedState = state;
    this.base = null;
  }

  /** `state` as plain data, without the tracking proxies (for checkpoints: the same JSON, written faster). */
  unwrapped<State extends object>(state: State): State {
    return this.trackedState === state && this.tracked ? (this.tracked.plain() as State) : state;
  }

  /** Whether folding from `before` to `after` crossed a snapshot boundary. */
  due(before: number, after: number): boolean {
    return Math.floor(after / this.options.every) > Math.floor(before / this.options.every);
  }

  take(state: { position: number }): void {
    if (this.trackedState !== state) this.track(state);
    // Into a rebuild's generation, the next snapshot is almost always a delta against this
    // writer's own last one (or the first keyframe): its entities are serialised before the
    // transaction opens, so the write lock, which the rebuild's audit-index thread waits on,
    // is held for the inserts only. The transaction still decides, and serialises afresh if
    // the table says otherwise.
    const ahead = this.generation === 'current' ? null : this.serialise(state.position, this.generation);
    try {
      this.db.transaction(() => this.write(state, ahead)).immediate();
    } catch (error) {
      // The write rolled back, but it drained the trackers' removals and may have created
      // tables that are gone again: forget the base and the statements, so the next
      // snapshot is taken against what the disk holds (a 'foreign' delta or a keyframe).
      this.base = null;
      this.prepared = null;
      throw error;
    }
  }

  private write(state: { position: number }, ahead: Serialised | null): void {
    const generation = this.targetGeneration();
    const statements = this.statementsFor(generation);
    const position = state.position;
    const collections = this.tracked!.collections();
    if (this.base?.generation !== generation) this.base = null;

    if (statements.exists.get(position)) {
      // Someone folding the same log took it already, with the same content.
      for (const collection of collections.values()) collection.takeRemoved();
      this.base = { generation, position, own: true };
      this.baseCollections = new Map(collections);
      return;
    }
    const latest = (statements.latestBefore.get(position) as { latest: number | null }).latest;
    const replaced = this.replaced(collections);
    let kind: 'keyframe' | 'own' | 'foreign';
    if (latest === null || replaced) kind = 'keyframe';
    else if (this.base?.own && this.base.position === latest) kind = 'own';
    else kind = 'foreign';

    const meta: SnapshotMeta = { scalars: {}, collections: [...collections.keys()] };
    for (const [field, value] of Object.entries(state)) if (!collections.has(field)) meta.scalars[field] = value;
    const baseKeys = kind === 'foreign' ? entityKeysAt(this.db, statements.names, latest!) : null;
    // Each collection's keys gone since the base (a NULL row each); every tracker starts a new period.
    const gone = new Map<string, string[]>();
    for (const [field, collection] of collections) {
      const removed = collection.takeRemoved();
      if (kind === 'own') gone.set(field, removed);
      if (kind === 'foreign')
        gone.set(
          field,
          [...(baseKeys!.get(field) ?? [])].filter((key) => !collection.has(key)),
        );
    }
    // A collection the base had and the state no longer has: every key it held is gone.
    if (baseKeys) for (const [field, keys] of baseKeys) if (!collections.has(field)) gone.set(field, [...keys]);
    const since = kind === 'keyframe' ? null : latest!;
    const bodies = ahead?.position === position && ahead.since === since ? ahead.bodies : null;
    // In key order (collection, then key), as the table's primary key sorts its rows: each
    // row lands at the end of the B-tree, so pages fill up instead of splitting in the middle.
    for (const field of [...new Set([...collections.keys(), ...gone.keys()])].sort()) {
      const collection = collections.get(field);
      const changed = bodies?.get(field) ?? (collection ? this.changed(collection, since) : []);
      const removed = (gone.get(field) ?? []).sort();
      for (let c = 0, r = 0; c < changed.length || r < removed.length;) {
        if (r === removed.length || (c < changed.length && changed[c][0] < removed[r])) {
          statements.insertEntity.run(position, field, changed[c][0], changed[c][1]);
          c++;
        } else statements.insertEntity.run(position, field, removed[r++], null);
      }
    }
    statements.insertSnapshot.run(position, kind === 'keyframe' ? 1 : 0, JSON.stringify(meta), (this.options.clock ?? (() => new Date()))().toISOString());
    this.tables.advance(this.name, generation, position);
    this.base = { generation, position, own: true };
    this.baseCollections = new Map(collections);
  }

  /** Whether a collection was replaced wholesale (or one came or went) since the base was taken. */
  private replaced(collections: Map<string, TrackedCollection>): boolean {
    return (
      this.base !== null &&
      (this.baseCollections.size !== collections.size || [...collections].some(([field, collection]) => this.baseCollections.get(field) !== collection))
    );
  }

  /** The entities of a fixed generation's next snapshot, serialised against the base write() will most likely find. */
  private serialise(position: number, generation: number): Serialised {
    const collections = this.tracked!.collections();
    const own = this.base?.generation === generation && this.base.own && !this.replaced(collections);
    const since = own ? this.base!.position : null;
    const bodies = new Map<string, [string, string][]>();
    for (const [field, collection] of collections) bodies.set(field, this.changed(collection, since));
    return { position, since, bodies };
  }

  /** [key, JSON] of every entity changed since `since` (all of them when null), by key. */
  private changed(collection: TrackedCollection, since: number | null): [string, string][] {
    const bodies: [string, string][] = [];
    collection.forEach((key, entity) => {
      if (since !== null) {
        const last = entity !== null && typeof entity === 'object' ? (entity as { lastPosition?: unknown }).lastPosition : undefined;
        if (typeof last === 'number' && last <= since) return;
      }
      bodies.push([key, JSON.stringify(entity)]);
    });
    // (JavaScript compares UTF-16 units, SQLite bytes: they differ only past U+FFFF, where an odd row order costs a little speed, nothing else.)
    return bodies.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
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

  private statementsFor(generation: number): Prepared {
    if (this.prepared?.generation === generation) return this.prepared;
    const names = snapshotTableNames(this.projectionName, generation);
    createSnapshotTables(this.db, names);
    this.prepared = {
      generation,
      names,
      exists: this.db.prepare(`SELECT 1 FROM "${names.snapshots}" WHERE position = ?`),
      latestBefore: this.db.prepare(`SELECT MAX(position) AS latest FROM "${names.snapshots}" WHERE position < ?`),
      insertEntity: this.db.prepare(`INSERT INTO "${names.entities}" (position, collection, key, body) VALUES (?, ?, ?, ?)`),
      insertSnapshot: this.db.prepare(`INSERT INTO "${names.snapshots}" (position, keyframe, meta, taken_at) VALUES (?, ?, ?, ?)`),
    };
    return this.prepared;
  }
}
