import { isCollection, type SnapshotMeta } from './snapshot-tables';

/** Who reads a collection's removals, each for its own period: the snapshots, and the checkpoints that store a state entity by entity. */
export type RemovalReader = 'snapshots' | 'checkpoints';

/**
 * One collection of a state (key -> entity), watched through a Proxy whose traps only
 * see keys being added, replaced and removed; reads go straight to the object. It keeps
 * the entities in an array, so a snapshot visits them without enumerating a big object
 * (which V8 does slowly: sorting hundreds of thousands of keys, every time).
 */
export class TrackedCollection {
  readonly proxy: Record<string, unknown>;
  private keys: (string | null)[] = [];
  private entities: unknown[] = [];
  private readonly slots = new Map<string, number>();
  /** Per reader, the keys removed since it last took them (some may be back since); a reader that never took any is not kept. */
  private readonly removed = new Map<RemovalReader, Set<string>>();

  constructor(readonly target: Record<string, unknown>) {
    for (const key of Object.keys(target)) this.add(key, target[key]);
    this.proxy = new Proxy(target, {
      set: (object, key, value) => {
        object[key as string] = value;
        if (typeof key === 'string') this.put(key, value);
        return true;
      },
      defineProperty: (object, key, descriptor) => {
        Object.defineProperty(object, key, descriptor);
        if (typeof key === 'string') this.put(key, object[key]);
        return true;
      },
      deleteProperty: (object, key) => {
        if (typeof key === 'string' && key in object) this.remove(key);
        return delete object[key as string];
      },
    });
  }

  get size(): number {
    return this.slots.size;
  }

  has(key: string): boolean {
    return this.slots.has(key);
  }

  /** Calls `visit` for every entity, in insertion order. */
  forEach(visit: (key: string, entity: unknown) => void): void {
    const { keys, entities } = this;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key !== null) visit(key, entities[i]);
    }
  }

  /** Keys removed since `reader`'s last call and not back; starts its new period (its first call: the removals from now on). */
  takeRemoved(reader: RemovalReader = 'snapshots'): string[] {
    const removed = this.removed.get(reader);
    this.removed.set(reader, new Set());
    if (this.keys.length > 2 * this.slots.size + 1_024) this.compact();
    return removed ? [...removed].filter((key) => !this.slots.has(key)) : [];
  }

  private put(key: string, value: unknown): void {
    const slot = this.slots.get(key);
    if (slot === undefined) this.add(key, value);
    else this.entities[slot] = value;
  }

  private add(key: string, value: unknown): void {
    this.slots.set(key, this.keys.length);
    this.keys.push(key);
    this.entities.push(value);
  }

  private remove(key: string): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    this.slots.delete(key);
    this.keys[slot] = null;
    this.entities[slot] = undefined;
    for (const removed of this.removed.values()) removed.add(key);
  }

  private compact(): void {
    const keys = this.keys;
    const entities = this.entities;
    this.keys = [];
    this.entities = [];
    this.slots.clear();
    for (let i = 0; i < keys.length; i++) if (keys[i] !== null) this.add(keys[i]!, entities[i]);
  }
}

/**
 * Wraps every collection field of a state in a TrackedCollection (the state object is
 * changed in place: its collection fields become the proxies). A fold that replaces a
 * whole collection is noticed at the next snapshot and that collection re-wrapped.
 */
export class TrackedState {
  private readonly tracked = new Map<string, TrackedCollection>();

  constructor(private readonly state: Record<string, unknown>) {
    for (const field of Object.keys(state)) if (isCollection(state[field])) this.wrap(field);
  }

  /** The state's collections as they stand, each with its tracker (wrapping any that are new or were replaced). */
  collections(): Map<string, TrackedCollection> {
    for (const field of Object.keys(this.state)) {
      const value = this.state[field];
      if (!isCollection(value)) {
        this.tracked.delete(field);
        continue;
      }
      if (this.tracked.get(field)?.proxy !== value) this.wrap(field);
    }
    for (const field of [...this.tracked.keys()]) if (!(field in this.state)) this.tracked.delete(field);
    return this.tracked;
  }

  /** The state with each collection's plain object in place of its tracking proxy: what serialising should read (the same JSON, twice as fast). */
  plain(): Record<string, unknown> {
    const copy = { ...this.state };
    for (const [field, collection] of this.collections()) if (copy[field] === collection.proxy) copy[field] = collection.target;
    return copy;
  }

  private wrap(field: string): void {
    const collection = new TrackedCollection(this.state[field] as Record<string, unknown>);
    this.tracked.set(field, collection);
    this.state[field] = collection.proxy;
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
