import type Database from 'better-sqlite3';
import type { TrackedCollection } from './tracked-collections';
import { SNAPSHOT_CHUNK_ENTITIES } from './snapshot-tables';

/** Per collection, [key, JSON] of the entities a snapshot stores, by key. */
export type ChangedEntities = Map<string, [key: string, body: string][]>;
/** Per collection, the keys gone since the snapshot's base (a NULL row each). */
export type GoneEntities = Map<string, string[]>;

/** Orders [key, body] rows by key. */
export const byKey = (a: [string, string], b: [string, string]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * [key, JSON] of every entity whose `lastPosition` moved past `since` (all of them when null,
 * or without one); by key if `ordered` (a checkpoint's rows then land at its B-tree's end),
 * else in the collection's order (a snapshot's chunks are not keyed by entity).
 */
export const changedEntities = (collection: TrackedCollection, since: number | null, ordered = true): [string, string][] => {
  const bodies: [string, string][] = [];
  collection.forEach((key, entity) => {
    if (since !== null) {
      const last = entity !== null && typeof entity === 'object' ? (entity as { lastPosition?: unknown }).lastPosition : undefined;
      if (typeof last === 'number' && last <= since) return;
    }
    bodies.push([key, JSON.stringify(entity)]);
  });
  // (JavaScript compares UTF-16 units, SQLite bytes: they differ only past U+FFFF, where an odd row order costs a little speed, nothing else.)
  return ordered ? bodies.sort(byKey) : bodies;
};

/** changedEntities of every collection, by field. */
export const changedEntitiesOf = (collections: Map<string, TrackedCollection>, since: number | null, ordered = true): ChangedEntities => {
  const changed: ChangedEntities = new Map();
  for (const [field, collection] of collections) changed.set(field, changedEntities(collection, since, ordered));
  return changed;
};

/**
 * Inserts a snapshot's entities, a collection's in chunks of `perChunk` (the
 * first of a collection also carries its keys gone since the base; a collection with
 * nothing changed and nothing gone has no row). Bodies are joined as they were printed,
 * not printed again. `changed` is read for every collection named in `fields`.
 */
export const insertChunks = (
  insert: Database.Statement,
  position: number,
  fields: Iterable<string>,
  changed: (field: string) => [string, string][],
  gone: GoneEntities,
  perChunk: number = SNAPSHOT_CHUNK_ENTITIES,
): void => {
  for (const field of [...new Set([...fields, ...gone.keys()])].sort()) {
    const bodies = changed(field);
    const removed = gone.get(field) ?? [];
    for (let chunk = 0, from = 0; from < bodies.length || (chunk === 0 && removed.length > 0); chunk++, from += perChunk) {
      const part = bodies.slice(from, from + perChunk);
      const keys = JSON.stringify(part.map(([key]) => key));
      insert.run(position, field, chunk, keys, `[${part.map(([, body]) => body).join(',')}]`, chunk === 0 ? JSON.stringify(removed) : '[]');
    }
  }
};
