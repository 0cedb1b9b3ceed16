import type Database from 'better-sqlite3';
import type { TrackedCollection } from './tracked-collections';
import type { GoneEntities } from './snapshot-rows';
import { SNAPSHOT_CHUNK_CHARS, SNAPSHOT_CHUNK_ENTITIES } from './snapshot-tables';

/** A chunk row's keys and the entities' bodies, each a JSON array in the same order. */
export type Chunk = [keys: string, bodies: string];
/** Per collection, the chunks of the entities a snapshot stores. */
export type ChangedChunks = Map<string, Chunk[]>;

/** The entities of a collection's first chunk, before it is known how big they print. */
const FIRST_CHUNK_ENTITIES = 16;

/**
 * The entities of `collection` a snapshot against `since` stores (those changed after it), in chunks
 * in the order the collection gives them (forEachChangedSince): a chunk's bodies printed by one JSON.stringify, half the
 * CPU of one call an entity and a join. A chunk holds at most `perChunk` entities and,
 * after the first, as many as the last chunk's entities would print in `chunkChars`
 * (SNAPSHOT_CHUNK_CHARS: a string V8 keeps in its young generation).
 */
export const changedChunks = (
  collection: TrackedCollection,
  since: number | null,
  perChunk: number = SNAPSHOT_CHUNK_ENTITIES,
  chunkChars: number = SNAPSHOT_CHUNK_CHARS,
): Chunk[] => {
  const chunks: Chunk[] = [];
  let keys: string[] = [];
  let entities: unknown[] = [];
  let size = Math.min(perChunk, FIRST_CHUNK_ENTITIES);
  const close = (): void => {
    const bodies = JSON.stringify(entities);
    chunks.push([JSON.stringify(keys), bodies]);
    size = Math.max(1, Math.min(perChunk, Math.floor((chunkChars * entities.length) / bodies.length)));
    keys = [];
    entities = [];
  };
  collection.forEachChangedSince(since, (key, entity) => {
    keys.push(key);
    entities.push(entity);
    if (keys.length >= size) close();
  });
  if (keys.length > 0) close();
  return chunks;
};

/** changedChunks of every collection, by field. */
export const changedChunksOf = (collections: Map<string, TrackedCollection>, since: number | null, perChunk?: number): ChangedChunks => {
  const changed: ChangedChunks = new Map();
  for (const [field, collection] of collections) changed.set(field, changedChunks(collection, since, perChunk));
  return changed;
};

/** The chunk row's insert: position, collection, chunk, keys, bodies, gone. */
export type ChunkInsert = Database.Statement<[number, string, number, string, string, string]>;

/**
 * Inserts a snapshot's chunks (the first row of a collection also carries its keys gone
 * since the base; a collection with nothing changed and nothing gone has no row).
 * `changed` is read for every collection named in `fields`.
 */
export const insertChunks = (
  insert: ChunkInsert,
  position: number,
  fields: Iterable<string>,
  changed: (field: string) => Chunk[],
  gone: GoneEntities,
): void => {
  for (const field of [...new Set([...fields, ...gone.keys()])].sort()) {
    const chunks = changed(field);
    const removed = JSON.stringify(gone.get(field) ?? []);
    if (chunks.length === 0 && removed !== '[]') insert.run(position, field, 0, '[]', '[]', removed);
    chunks.forEach(([keys, bodies], chunk) => insert.run(position, field, chunk, keys, bodies, chunk === 0 ? removed : '[]'));
  }
};
