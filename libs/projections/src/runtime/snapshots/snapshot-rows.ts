import type Database from 'better-sqlite3';
import type { TrackedCollection } from './tracked-collections';

/** Per collection, [key, JSON] of the entities a snapshot stores, by key. */
export type ChangedEntities = Map<string, [key: string, body: string][]>;
/** Per collection, the keys gone since the snapshot's base (a NULL row each). */
export type GoneEntities = Map<string, string[]>;

/** Orders [key, body] rows by key. */
export const byKey = (a: [string, string], b: [string, string]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** [key, JSON] of every entity whose `lastPosition` moved past `since` (all of them when null, or without one), by key. */
export const changedEntities = (collection: TrackedCollection, since: number | null): [string, string][] => {
  const bodies: [string, string][] = [];
  collection.forEach((key, entity) => {
    if (since !== null) {
      const last = entity !== null && typeof entity === 'object' ? (entity as { lastPosition?: unknown }).lastPosition : undefined;
      if (typeof last === 'number' && last <= since) return;
    }
    bodies.push([key, JSON.stringify(entity)]);
  });
  // (JavaScript compares UTF-16 units, SQLite bytes: they differ only past U+FFFF, where an odd row order costs a little speed, nothing else.)
  return bodies.sort(byKey);
};

/** changedEntities of every collection, by field. */
export const changedEntitiesOf = (collections: Map<string, TrackedCollection>, since: number | null): ChangedEntities => {
  const changed: ChangedEntities = new Map();
  for (const [field, collection] of collections) changed.set(field, changedEntities(collection, since));
  return changed;
};

/**
 * Inserts a snapshot's entity rows in the order of the table's primary key (collection,
 * then key): each row lands at the end of the B-tree, so pages fill up instead of
 * splitting in the middle. `changed` is read for every collection named in `fields`.
 */
export const insertEntitiesInKeyOrder = (
  insert: Database.Statement,
  position: number,
  fields: Iterable<string>,
  changed: (field: string) => [string, string][],
  gone: GoneEntities,
): void => {
  for (const field of [...new Set([...fields, ...gone.keys()])].sort()) {
    const bodies = changed(field);
    const removed = [...(gone.get(field) ?? [])].sort();
    for (let c = 0, r = 0; c < bodies.length || r < removed.length;) {
      if (r === removed.length || (c < bodies.length && bodies[c][0] < removed[r])) {
        insert.run(position, field, bodies[c][0], bodies[c][1]);
        c++;
      } else insert.run(position, field, removed[r++], null);
    }
  }
};
