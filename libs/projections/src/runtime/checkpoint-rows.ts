import type Database from 'better-sqlite3';
import type { StatementCache } from './statement-cache';
import type { SnapshotMeta } from './snapshots/snapshot-tables';
import type { ChangedEntities, GoneEntities } from './snapshots/snapshot-rows';

export interface StoredCheckpoint<State> {
  position: number;
  state: State;
  /** How it was saved: by entities (saveEntities; the next save may be a delta) or whole (save, saveJson, or an earlier version). */
  savedAs: 'entities' | 'whole';
}

/** A state saved entity by entity: all of it, or what changed since its last save. */
export interface EntityCheckpoint {
  position: number;
  /** The state's plain fields and the names of its collections. */
  meta: SnapshotMeta;
  /** Every entity of the state (the stored ones are replaced), or only the changes since the last save of this name. */
  full: boolean;
  /** For a delta: the position of the save it is taken against, which must still be the stored one. */
  since: number | null;
  /** Per collection, [key, JSON] of the entities to store. */
  changed: ChangedEntities;
  /** Per collection, the keys gone since the last save (a delta only). */
  gone: GoneEntities;
}

/** The checkpoints row of a state saved whole in parts: its position and how many parts (`{"parts":N}`). */
export const partsRow = (name: string): string => `${name}/parts`;
/** The checkpoints row holding part `index` of a state saved whole in parts (its text cut at `partChars`). */
export const partRow = (name: string, index: number): string => `${name}/part/${index}`;

/**
 * Characters of a whole state's text one row holds. A bigger text (a 1,000,000-event ledger's
 * view: 108 MB) is written in parts: a write binds, and SQLite copies, a part at a time into
 * blocks malloc reuses, never a fresh block the size of the state (on a VM, the first touch of
 * fresh memory cost 0.8-9 ms a megabyte, moving the promotion's save between 0.23 and 2.8 s).
 */
export const WHOLE_PART_CHARS = 1_048_576;

/** The checkpoints row of a state saved entity by entity: its position, its meta, and the row set holding its entities. */
export const entitiesRow = (name: string): string => `${name}/entities`;
/** The checkpoints row listing the row sets of `name` that are not its checkpoint (any more, or yet): their rows are deleted a step at a time. */
export const garbageRow = (name: string): string => `${name}/garbage`;
/** The row sets of `name` are `name#1`, `name#2`...; a checkpoint saved before row sets keeps its rows under `name`. */
export const rowSetNumber = (name: string, set: string): number => (set.startsWith(`${name}#`) ? Number(set.slice(name.length + 1)) || 0 : 0);

/** The meta a checkpoint saved entity by entity stores: the state's plain fields and collections, and where its rows are (absent: under its own name). */
export type StoredMeta = SnapshotMeta & { rows?: string };

/** What commitStaged writes last: the changes since the staged save began, and the position and meta it saves. */
export interface StagedCommit {
  position: number;
  meta: SnapshotMeta;
  changed: ChangedEntities;
  gone: GoneEntities;
}

/** The checkpoints table (one row per state saved whole, per part, per meta of a state saved by entities) and the entities' rows. */
export const createCheckpointTables = (db: Database.Database): void => {
  db.exec(`CREATE TABLE IF NOT EXISTS checkpoints (
      name TEXT PRIMARY KEY,
      position INTEGER NOT NULL,
      state TEXT NOT NULL,
      saved_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS checkpoint_entities (
      name       TEXT NOT NULL,
      collection TEXT NOT NULL,
      key        TEXT NOT NULL,
      body       TEXT NOT NULL,
      PRIMARY KEY (name, collection, key)
    ) WITHOUT ROWID`);
};

/** The state of a checkpoint saved by entities: its plain fields, and its collections filled from the row set's rows. */
export const loadEntities = (statements: StatementCache, rowSet: string, meta: SnapshotMeta): Record<string, unknown> => {
  const state: Record<string, unknown> = { ...meta.scalars };
  const collections = new Map<string, Record<string, unknown>>();
  for (const collection of meta.collections) {
    const entities: Record<string, unknown> = {};
    state[collection] = entities;
    collections.set(collection, entities);
  }
  const rows = statements
    .get<[string], [collection: string, key: string, body: string]>('SELECT collection, key, body FROM checkpoint_entities WHERE name = ?')
    .raw(true)
    .iterate(rowSet);
  for (const [collection, key, body] of rows) {
    const entities = collections.get(collection);
    if (entities) entities[key] = JSON.parse(body);
  }
  return state;
};

/** Writes a row set's entities changed and deletes those gone (in the caller's transaction, if one is open). */
export const writeEntities = (statements: StatementCache, rowSet: string, changed: ChangedEntities, gone: GoneEntities): void => {
  const upsert = statements.get<[string, string, string, string]>(
    `INSERT INTO checkpoint_entities (name, collection, key, body) VALUES (?, ?, ?, ?)
     ON CONFLICT(name, collection, key) DO UPDATE SET body = excluded.body`,
  );
  const remove = statements.get<[string, string, string]>('DELETE FROM checkpoint_entities WHERE name = ? AND collection = ? AND key = ?');
  for (const [collection, keys] of gone) for (const key of keys) remove.run(rowSet, collection, key);
  // In key order within each collection, as changedEntities gives them: rows land at the B-tree's end on a full save.
  for (const collection of [...changed.keys()].sort()) {
    for (const [key, body] of changed.get(collection)!) upsert.run(rowSet, collection, key, body);
  }
};
