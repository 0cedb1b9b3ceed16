import type Database from 'better-sqlite3';
import { generationTable } from '../read-model-tables';

/**
 * Snapshots of an in-memory projection, one generation of tables at a time:
 * - snapshots: one row per snapshot position: the state's plain fields, the names of
 *   its collections, and whether it is a keyframe (holds every entity);
 * - chunks: the entities stored at a snapshot, a collection's in rows of up to
 *   SNAPSHOT_CHUNK_ENTITIES and about SNAPSHOT_CHUNK_CHARS of JSON: their keys, the keys
 *   removed since the previous snapshot, and their bodies (a JSON array in the keys'
 *   order). A delta snapshot stores only the entities that changed since the previous
 *   snapshot, so snapshots every N events cost what changed, not the whole state.
 *
 * A row per chunk and not per entity: a million-event ledger stores about 900,000
 * entities in its snapshots, and a row each cost its rebuild more than the fold of the
 * view itself (the B-tree's inserts, one prepared-statement run each).
 *
 * A projection's state is a record whose object-valued fields are collections
 * (key -> entity) and whose other fields are plain values (`position`).
 */
export interface SnapshotTableNames {
  snapshots: string;
  chunks: string;
  /** Where versions before the chunks kept a row per entity: dropped wherever it is found. */
  legacyEntities: string;
}

/** At most this many entities to a chunk row. */
export const SNAPSHOT_CHUNK_ENTITIES = 1_000;

/**
 * About as many characters of JSON as a chunk's bodies hold: each stays a string V8 makes
 * in its young generation, which is reused, even at two bytes a character. A string over
 * 128 KB goes to its large-object space instead, on pages mapped for it alone and unmapped
 * when it dies; a chunk is
 * printed, posted to the rebuild's audit thread (the copy made there too) and bound to
 * SQLite, so on a VM where the first touch of fresh memory is dear that cost more than
 * printing it (a chunk of 1,000 ledger entities is about 400 KB; a rebuild of the bench's
 * 1,000,000 events spent 1.3 s of its main thread posting 379 MB of such chunks, 0.5 s
 * with chunks of 150 entities, in alternated runs of the bench's read-model-rebuild section).
 */
export const SNAPSHOT_CHUNK_CHARS = 60_000;

export const snapshotsOf = (projectionName: string): string => `${projectionName}/snapshots`;

export const snapshotTableNames = (projectionName: string, generation: number): SnapshotTableNames => ({
  snapshots: generationTable(`${projectionName} snapshots`, generation),
  chunks: generationTable(`${projectionName} snapshot chunks`, generation),
  legacyEntities: generationTable(`${projectionName} snapshot entities`, generation),
});

export const snapshotTablesOf =
  (projectionName: string) =>
  (generation: number): string[] => {
    const names = snapshotTableNames(projectionName, generation);
    return [names.snapshots, names.chunks, names.legacyEntities];
  };

const tableExists = (db: Database.Database, name: string): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;

/** Whether a generation's snapshots are in the chunked layout (a generation an older version wrote has none this code reads). */
export const snapshotTablesReadable = (db: Database.Database, names: SnapshotTableNames): boolean =>
  tableExists(db, names.snapshots) && tableExists(db, names.chunks);

/**
 * Creates a generation's tables. A generation an older version wrote a row per entity into
 * loses its snapshots (they are only a shortcut for time travel): its next one is a keyframe.
 */
export const createSnapshotTables = (db: Database.Database, names: SnapshotTableNames): void => {
  if (tableExists(db, names.legacyEntities)) {
    db.exec(`DROP TABLE "${names.legacyEntities}"; DROP TABLE IF EXISTS "${names.snapshots}"`);
  }
  db.exec(`
    CREATE TABLE IF NOT EXISTS "${names.snapshots}" (
      position INTEGER PRIMARY KEY,
      keyframe INTEGER NOT NULL,
      meta     TEXT    NOT NULL,
      taken_at TEXT    NOT NULL
    );
    CREATE TABLE IF NOT EXISTS "${names.chunks}" (
      position   INTEGER NOT NULL,
      collection TEXT    NOT NULL,
      chunk      INTEGER NOT NULL,
      keys       TEXT    NOT NULL,
      gone       TEXT    NOT NULL,
      -- last: a reader of the keys alone does not walk the bodies' overflow pages
      bodies     TEXT    NOT NULL,
      PRIMARY KEY (position, collection, chunk)
    );
  `);
};

/** The snapshot row's `meta`: the plain fields and which fields are collections. */
export interface SnapshotMeta {
  scalars: Record<string, unknown>;
  collections: string[];
}

export const isCollection = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
