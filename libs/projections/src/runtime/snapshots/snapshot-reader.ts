import type Database from 'better-sqlite3';
import { ReadModelTables } from '../read-model-tables';
import { snapshotsOf, snapshotTableNames, snapshotTablesReadable, type SnapshotMeta, type SnapshotTableNames } from './snapshot-tables';

/** The keyframe a snapshot's entities are gathered from: the last one at or before it. */
const keyframeAtOrBefore = (db: Database.Database, names: SnapshotTableNames, position: number): number =>
  (db.prepare(`SELECT MAX(position) AS keyframe FROM "${names.snapshots}" WHERE keyframe = 1 AND position <= ?`).get(position) as { keyframe: number | null })
    .keyframe ?? 0;

/**
 * Every entity as of snapshot `position`: the keyframe before it, overlaid by each later
 * delta up to it in order (a later chunk's entity replaces an earlier one; a key gone is
 * dropped). Without bodies, only the keys are read (each entity maps to true).
 */
const latestEntities = (db: Database.Database, names: SnapshotTableNames, position: number, withBodies: boolean): Map<string, Map<string, unknown>> => {
  const keyframe = keyframeAtOrBefore(db, names, position);
  const entitiesOf = new Map<string, Map<string, unknown>>();
  const rows = db
    .prepare(
      `SELECT collection, keys, ${withBodies ? 'bodies' : "'[]'"}, gone FROM "${names.chunks}" WHERE position BETWEEN ? AND ? ORDER BY position, collection, chunk`,
    )
    .raw(true)
    .iterate(keyframe, position) as IterableIterator<[string, string, string, string]>;
  for (const [collection, keys, bodies, gone] of rows) {
    let entities = entitiesOf.get(collection);
    if (!entities) entitiesOf.set(collection, (entities = new Map()));
    for (const key of JSON.parse(gone) as string[]) entities.delete(key);
    const parsed = withBodies ? (JSON.parse(bodies) as unknown[]) : null;
    (JSON.parse(keys) as string[]).forEach((key, i) => entities.set(key, parsed ? parsed[i] : true));
  }
  return entitiesOf;
};

/** The keys each collection held at snapshot `position` (a writer's base for its next delta). */
export const entityKeysAt = (db: Database.Database, names: SnapshotTableNames, position: number): Map<string, Set<string>> => {
  const keys = new Map<string, Set<string>>();
  for (const [collection, entities] of latestEntities(db, names, position, false)) keys.set(collection, new Set(entities.keys()));
  return keys;
};

/** Reads the current generation of a projection's snapshots. */
export class SnapshotReader {
  private readonly tables: ReadModelTables;

  constructor(
    private readonly db: Database.Database,
    private readonly projectionName: string,
  ) {
    this.tables = new ReadModelTables(db);
  }

  private current(): { generation: number; names: SnapshotTableNames } | null {
    const current = this.tables.current(snapshotsOf(this.projectionName));
    if (!current) return null;
    const names = snapshotTableNames(this.projectionName, current.generation);
    return snapshotTablesReadable(this.db, names) ? { generation: current.generation, names } : null;
  }

  private names(): SnapshotTableNames | null {
    return this.current()?.names ?? null;
  }

  /** The newest snapshot of the current generation and the keys of the entities it holds (what a new writer's first delta compares against), or null. */
  newestKeys(): { generation: number; position: number; keys: Map<string, Set<string>> } | null {
    const current = this.current();
    const position = current ? this.nearest(Number.MAX_SAFE_INTEGER) : null;
    return current && position !== null ? { generation: current.generation, position, keys: entityKeysAt(this.db, current.names, position) } : null;
  }

  /** The position of the newest snapshot at or before `position`, or null. */
  nearest(position: number): number | null {
    const names = this.names();
    if (!names) return null;
    const row = this.db.prepare(`SELECT MAX(position) AS nearest FROM "${names.snapshots}" WHERE position <= ?`).get(position) as
      { nearest: number | null } | undefined;
    return row?.nearest ?? null;
  }

  /** Every snapshot position, oldest first. */
  positions(): number[] {
    const names = this.names();
    if (!names) return [];
    return (this.db.prepare(`SELECT position FROM "${names.snapshots}" ORDER BY position`).raw(true).all() as [number][]).map(([position]) => position);
  }

  /** The state as snapshot `position` holds it, built on `initialState()`; null if there is no such snapshot. */
  load<State extends object>(position: number, initialState: () => State): State | null {
    const names = this.names();
    if (!names) return null;
    const row = this.db.prepare(`SELECT meta FROM "${names.snapshots}" WHERE position = ?`).get(position) as { meta: string } | undefined;
    if (!row) return null;
    const meta = JSON.parse(row.meta) as SnapshotMeta;
    const state = initialState() as Record<string, unknown>;
    Object.assign(state, meta.scalars);
    const entitiesOf = latestEntities(this.db, names, position, true);
    for (const collection of meta.collections) state[collection] = Object.fromEntries(entitiesOf.get(collection) ?? []);
    return state as State;
  }
}
