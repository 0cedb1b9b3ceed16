import type { CollectionChanges } from '../collection-changes';
import { isCollection, type SnapshotMeta } from './snapshot-tables';

/** Who reads a collection's removals, each for its own period: the snapshots, and the checkpoints that store a state entity by entity. */
export type RemovalReader = 'snapshots' | 'checkpoints';

/** Whether an entity found in a collection (not reported) may have changed after `since`: its `lastPosition` is past it, or it has none. */
const foundChangedSince = (entity: unknown, since: number): boolean => {
  const last = entity !== null && typeof entity === 'object' ? (entity as { lastPosition?: unknown }).lastPosition : undefined;
  return typeof last !== 'number' || last > since;
};

/** A removal, in a collection's log of reports. */
const REMOVED: unique symbol = Symbol('removed');

/** How long a collection's log of reports grows (TrackedCollection). */
export interface ChangeLogLimits {
  /** Reports no reader needs any more that the log keeps before it cuts them (a cut moves the rest down). */
  slack: number;
  /** Reports kept at most when a reader falls behind (or none ever reads): past this the log is dropped, and answers come from a scan. */
  limit: number;
}

/**
 * A log normally holds the reports since the older of the last snapshot and the last
 * checkpoint: 11,000-15,000 on the bench's log with a snapshot every 10,000 events. The limit,
 * about 24 MB of reports (three 8-byte slots each), is for a reader that cannot save for long
 * (a snapshot giving way to another writer's lock, a full disk).
 */
const CHANGE_LOG_LIMITS: ChangeLogLimits = { slack: 4_096, limit: 1 << 20 };

/**
 * One collection of a state (key -> entity), as its fold reports it (CollectionChanges):
 * a log of the reports, in the order of the log's events, from `logStart` on. What changed
 * since a position at or after it is read from the log (its keys in the order they were
 * first reported there, each with its latest entity), at the cost of the reports since, not
 * of the collection's size; a report costs three array pushes, and no lookup in a big table.
 * Before `logStart` (the tracking began later, or the log was cut), the answer comes from a
 * scan of the collection, each entity by its `lastPosition`.
 */
export class TrackedCollection {
  private logKeys: string[] = [];
  private logEntities: unknown[] = [];
  private logPositions: number[] = [];
  /** The log holds every report after this position (+Infinity: none is known complete). */
  private logStart: number;
  /** Per reader, the position from which it may still ask what changed (keepFrom). */
  private readonly keptFrom = new Map<RemovalReader, number>();
  /** Per reader, the keys removed since it last took them (some may be back since); a reader that never took any is not kept. */
  private readonly removed = new Map<RemovalReader, Set<string>>();

  /** `position`: where the state stands as tracking begins (the fold reports every change after it). */
  constructor(
    readonly target: Record<string, unknown>,
    position: number = Number.POSITIVE_INFINITY,
    private readonly limits: ChangeLogLimits = CHANGE_LOG_LIMITS,
  ) {
    this.logStart = position;
  }

  /** Its keys, in the collection's own order (enumerates them: for a save's rare full visit, not per event). */
  keys(): string[] {
    return Object.keys(this.target);
  }

  /** How many entities it holds (enumerates them, as keys() does). */
  get size(): number {
    return this.keys().length;
  }

  has(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.target, key);
  }

  /** The fold added, replaced or changed `entity` (`target[key]`) at `position`. */
  changed(key: string, entity: unknown, position: number): void {
    this.log(key, entity, position);
  }

  /** The fold deleted `target[key]` at `position`. */
  deleted(key: string, position: number): void {
    this.log(key, REMOVED, position);
    for (const removed of this.removed.values()) removed.add(key);
  }

  /** Calls `visit` for every entity, in the collection's own order. */
  forEach(visit: (key: string, entity: unknown) => void): void {
    const { target } = this;
    for (const key of this.keys()) visit(key, target[key]);
  }

  /**
   * Calls `visit` for every entity changed after `since` (every one when null): from the
   * log, in the order first reported there, when it reaches back to `since`; else all the
   * entities that may have (foundChangedSince), in the collection's own order.
   */
  forEachChangedSince(since: number | null, visit: (key: string, entity: unknown) => void): void {
    if (since === null) return this.forEach(visit);
    if (since < this.logStart) {
      this.forEach((key, entity) => {
        if (foundChangedSince(entity, since)) visit(key, entity);
      });
      return;
    }
    // A key reported more than once keeps its first place and takes its latest entity (Map keeps insertion order).
    const latest = new Map<string, unknown>();
    const { logKeys, logEntities } = this;
    for (let i = this.firstAfter(since); i < logKeys.length; i++) latest.set(logKeys[i], logEntities[i]);
    for (const [key, entity] of latest) if (entity !== REMOVED) visit(key, entity);
  }

  /**
   * `reader` will ask what changed since no earlier than `position` (its last save, or the
   * base of a save under way): the log may forget the reports up to the earliest position
   * its readers keep.
   */
  keepFrom(reader: RemovalReader, position: number): void {
    this.keptFrom.set(reader, position);
    let earliest = Number.POSITIVE_INFINITY;
    for (const kept of this.keptFrom.values()) earliest = Math.min(earliest, kept);
    const cut = this.firstAfter(earliest);
    if (cut <= this.limits.slack) return;
    this.logKeys = this.logKeys.slice(cut);
    this.logEntities = this.logEntities.slice(cut);
    this.logPositions = this.logPositions.slice(cut);
    this.logStart = Math.max(this.logStart, earliest);
  }

  /** How many reports the log holds now (what keepFrom and the limits bound). */
  get reportsKept(): number {
    return this.logKeys.length;
  }

  /** Keys removed since `reader`'s last call and not back; starts its new period (its first call: the removals from now on). */
  takeRemoved(reader: RemovalReader = 'snapshots'): string[] {
    const removed = this.removed.get(reader);
    this.removed.set(reader, new Set());
    return removed ? [...removed].filter((key) => !this.has(key)) : [];
  }

  private log(key: string, entity: unknown, position: number): void {
    if (this.logKeys.length >= this.limits.limit) {
      // No reader keeps up: answers from a scan, until one keeps from a position past this one.
      this.logKeys = [];
      this.logEntities = [];
      this.logPositions = [];
      this.logStart = position;
    }
    this.logKeys.push(key);
    this.logEntities.push(entity);
    this.logPositions.push(position);
  }

  /** The index of the log's first report after `position` (positions only grow along it). */
  private firstAfter(position: number): number {
    const positions = this.logPositions;
    let low = 0;
    let high = positions.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (positions[middle] <= position) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * Tracks every collection field of a state (TrackedCollection), fed by its fold's reports:
 * the CollectionChanges a StateFold passes its projection. A fold that replaces a whole
 * collection is noticed at the next snapshot or checkpoint, and that collection tracked
 * afresh from what it holds.
 */
export class TrackedState implements CollectionChanges {
  private readonly tracked = new Map<string, TrackedCollection>();
  /** The state, read field by field. */
  private readonly state: Record<string, unknown>;

  constructor(state: object) {
    this.state = state as Record<string, unknown>;
    for (const field of Object.keys(state)) if (isCollection(this.state[field])) this.track(field);
  }

  changed(field: string, key: string, entity: unknown, position: number): void {
    // A collection replaced or new since the last look (collections()) is tracked afresh there, from what it holds.
    const collection = this.tracked.get(field);
    if (collection !== undefined && collection.target === this.state[field]) collection.changed(key, entity, position);
  }

  removed(field: string, key: string, position: number): void {
    const collection = this.tracked.get(field);
    if (collection !== undefined && collection.target === this.state[field]) collection.deleted(key, position);
  }

  /** The state's collections as they stand, each with its tracker (tracking any that are new or were replaced). */
  collections(): Map<string, TrackedCollection> {
    for (const field of Object.keys(this.state)) {
      const value = this.state[field];
      if (!isCollection(value)) {
        this.tracked.delete(field);
        continue;
      }
      if (this.tracked.get(field)?.target !== value) this.track(field);
    }
    for (const field of [...this.tracked.keys()]) if (!(field in this.state)) this.tracked.delete(field);
    return this.tracked;
  }

  private track(field: string): void {
    const position = this.state.position;
    this.tracked.set(field, new TrackedCollection(this.state[field] as Record<string, unknown>, typeof position === 'number' ? position : undefined));
  }
}

/** Whether a collection was replaced wholesale (or one came or went) between two readings of a state's trackers. */
export const trackersReplaced = (before: Map<string, TrackedCollection>, now: Map<string, TrackedCollection>): boolean =>
  before.size !== now.size || [...now].some(([field, collection]) => before.get(field) !== collection);

/** A state's plain fields and the names of its collections: what a snapshot or checkpoint stores beside the entities. */
export const metaOf = (state: object, collections: Map<string, TrackedCollection>): SnapshotMeta => {
  const meta: SnapshotMeta = { scalars: {}, collections: [...collections.keys()] };
  for (const [field, value] of Object.entries(state)) if (!collections.has(field)) meta.scalars[field] = value;
  return meta;
};
