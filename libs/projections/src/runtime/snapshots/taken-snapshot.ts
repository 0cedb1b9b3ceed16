import type Database from 'better-sqlite3';
import type { ReadModelTables } from '../read-model-tables';
import { createSnapshotTables, snapshotsOf, snapshotTableNames, type SnapshotTableNames } from './snapshot-tables';
import type { GoneEntities } from './snapshot-rows';
import { insertChunks, type ChangedChunks, type ChunkInsert } from './snapshot-chunks';

/** One generation's snapshot tables, created if need be, and the statements that write them. */
export interface SnapshotStatements {
  projectionName: string;
  generation: number;
  names: SnapshotTableNames;
  exists: Database.Statement<[number], 1>;
  latestBefore: Database.Statement<[number], { latest: number | null }>;
  insertChunk: ChunkInsert;
  insertSnapshot: Database.Statement<[number, number, string, string]>;
}

export const snapshotStatements = (db: Database.Database, projectionName: string, generation: number): SnapshotStatements => {
  const names = snapshotTableNames(projectionName, generation);
  createSnapshotTables(db, names);
  return {
    projectionName,
    generation,
    names,
    exists: db.prepare(`SELECT 1 FROM "${names.snapshots}" WHERE position = ?`),
    latestBefore: db.prepare(`SELECT MAX(position) AS latest FROM "${names.snapshots}" WHERE position < ?`),
    insertChunk: db.prepare(`INSERT INTO "${names.chunks}" (position, collection, chunk, keys, bodies, gone) VALUES (?, ?, ?, ?, ?, ?)`),
    insertSnapshot: db.prepare(`INSERT INTO "${names.snapshots}" (position, keyframe, meta, taken_at) VALUES (?, ?, ?, ?)`),
  };
};

/** A snapshot's changed entities, serialised before its transaction opens, against the base (`since`) the writer expects it to find. */
export interface Serialised {
  position: number;
  since: number | null;
  changed: ChangedChunks;
}

/** A snapshot handed to another thread to write (handOff): all of its rows, against the snapshot taken before it (`since`; null: a keyframe). */
export interface TakenSnapshot extends Serialised {
  gone: GoneEntities;
  meta: string;
  takenAt: string;
}

/**
 * Writes a snapshot a SnapshotWriter took and handed off (the rebuild's audit thread writes the
 * main thread's this way), in the caller's transaction. Refuses one the generation does not
 * hold the base of, or holds already.
 */
export const writeTakenSnapshot = (tables: ReadModelTables, statements: SnapshotStatements, snapshot: TakenSnapshot): void => {
  const name = snapshotsOf(statements.projectionName);
  const latest = statements.latestBefore.get(snapshot.position)!.latest;
  if (statements.exists.get(snapshot.position) || (snapshot.since !== null && latest !== snapshot.since)) {
    throw new Error(`${name}: generation ${statements.generation} holds snapshots the writer did not take; one taken against another cannot be written`);
  }
  insertChunks(statements.insertChunk, snapshot.position, snapshot.changed.keys(), (field) => snapshot.changed.get(field) ?? [], snapshot.gone);
  statements.insertSnapshot.run(snapshot.position, snapshot.since === null ? 1 : 0, snapshot.meta, snapshot.takenAt);
  tables.advance(name, statements.generation, snapshot.position);
};
