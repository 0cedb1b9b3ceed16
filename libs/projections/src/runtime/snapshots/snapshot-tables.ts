import type Database from 'better-sqlite3';
import { generationTable } from '../read-model-tables';

/**
 * Snapshots of an in-memory projection, one generation of tables at a time:
 * - snapshots: one row per snapshot position: the state's plain fields, the names of
 *   its collections, and whether it is a keyframe (holds every entity);
 * - entities: one row per entity stored at a snapshot (body NULL: removed since the
 *   previous one). A delta snapshot stores only the entities that changed since the
 *   previous snapshot, so snapshots every N events cost what changed, not the whole state.
 *
 * A projection's state is a record whose object-valued fields are collections
 * (key -> entity) and whose other fields are plain values (`position`).
 */
export interface SnapshotTableNames {
  snapshots: string;
  entities: string;
}

export const snapshotsOf = (projectionName: string): string => `${projectionName}/snapshots`;

export const snapshotTableNames = (projectionName: string, generation: number): SnapshotTableNames => ({
  snapshots: generationTable(`${projectionName} snapshots`, generation),
  entities: generationTable(`${projectionName} snapshot entities`, generation),
});

export const snapshotTablesOf =
  (projectionName: string) =>
  (generation: number): string[] => {
    const names = snapshotTableNames(projectionName, generation);
    return [names.snapshots, names.entities];
  };

export const createSnapshotTables = (db: Database.Database, names: SnapshotTableNames): void => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS "${names.snapshots}" (
      position INTEGER PRIMARY KEY,
      keyframe INTEGER NOT NULL,
      meta     TEXT    NOT NULL,
      taken_at TEXT    NOT NULL
    );
    CREATE TABLE IF NOT EXISTS "${names.entities}" (
      position   INTEGER NOT NULL,
      collection TEXT    NOT NULL,
      key        TEXT    NOT NULL,
      body       TEXT,
      PRIMARY KEY (position, collection, key)
    ) WITHOUT ROWID;
  `);
};

/** The snapshot row's `meta`: the plain fields and which fields are collections. */
export interface SnapshotMeta {
  scalars: Record<string, unknown>;
  collections: string[];
}

export const isCollection = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
