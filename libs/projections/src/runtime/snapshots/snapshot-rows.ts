import type { TrackedCollection } from './tracked-collections';

/** Per collection, [key, JSON] of the entities a checkpoint stores, by key. */
export type ChangedEntities = Map<string, [key: string, body: string][]>;
/** Per collection, the keys gone since the base a save is taken against. */
export type GoneEntities = Map<string, string[]>;

/** Orders [key, body] rows by key. */
export const byKey = (a: [string, string], b: [string, string]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** [key, JSON] of every entity changed after `since` (all of them when null), by key. */
export const changedEntities = (collection: TrackedCollection, since: number | null): [string, string][] => {
  const bodies: [string, string][] = [];
  collection.forEachChangedSince(since, (key, entity) => bodies.push([key, JSON.stringify(entity)]));
  // (JavaScript compares UTF-16 units, SQLite bytes: they differ only past U+FFFF, where an odd row order costs a little speed, nothing else.)
  return bodies.sort(byKey);
};

/** changedEntities of every collection, by field. */
export const changedEntitiesOf = (collections: Map<string, TrackedCollection>, since: number | null): ChangedEntities => {
  const changed: ChangedEntities = new Map();
  for (const [field, collection] of collections) changed.set(field, changedEntities(collection, since));
  return changed;
};
