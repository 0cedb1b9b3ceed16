/**
 * What a projection's fold tells the runtime about the entities of its state's collections
 * (a collection: a field of the state holding a plain object, key -> entity). Snapshots and
 * checkpoints store the entities reported changed since their base, and drop those reported
 * removed, without scanning the state or watching it through proxies.
 */
export interface CollectionChanges {
  /** `entity`, now `state[field][key]`, was added, replaced or changed in place by the event at `position`. */
  changed(field: string, key: string, entity: unknown, position: number): void;
  /** `state[field][key]` was deleted by the event at `position`. */
  removed(field: string, key: string, position: number): void;
}

/** For a fold nobody snapshots or checkpoints (time travel's replays, tests): reports go nowhere. */
export const UNTRACKED: CollectionChanges = {
  changed: () => undefined,
  removed: () => undefined,
};
