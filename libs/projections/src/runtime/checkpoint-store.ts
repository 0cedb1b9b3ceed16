import type Database from 'better-sqlite3';
import { StatementCache } from './statement-cache';
import { openReadModelDatabase } from './read-model-database';
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

/** The checkpoints row of a state saved entity by entity: its position and meta; its entities are rows of checkpoint_entities. */
const entitiesRow = (name: string): string => `${name}/entities`;

/**
 * Checkpoints of in-memory projections, in the read-model database: a projection's
 * data and the position it reflects are written in one transaction (one row for a
 * state saved whole, its entities' rows and one row for one saved entity by entity):
 * they can never disagree after a crash.
 */
export class CheckpointStore {
  private readonly statements: StatementCache;

  private constructor(
    readonly db: Database.Database,
    private readonly ownsDb: boolean,
  ) {
    this.statements = new StatementCache(db);
    if (!db.readonly) {
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
    }
  }

  static open(file: string): CheckpointStore {
    return new CheckpointStore(openReadModelDatabase(file), true);
  }

  /** Checkpoints in a database someone else opened (and closes). */
  static on(db: Database.Database): CheckpointStore {
    return new CheckpointStore(db, false);
  }

  /** The state saved under `name`, entity by entity or whole, whichever it was saved as last. */
  load<State>(name: string): StoredCheckpoint<State> | null {
    const meta = this.loadJson(entitiesRow(name));
    if (meta) return { position: meta.position, state: this.loadEntities(name, JSON.parse(meta.state) as SnapshotMeta) as State, savedAs: 'entities' };
    const row = this.loadJson(name);
    return row ? { position: row.position, state: JSON.parse(row.state) as State, savedAs: 'whole' } : null;
  }

  private loadEntities(name: string, meta: SnapshotMeta): Record<string, unknown> {
    const state: Record<string, unknown> = { ...meta.scalars };
    const collections = new Map<string, Record<string, unknown>>();
    for (const collection of meta.collections) collections.set(collection, (state[collection] = {}) as Record<string, unknown>);
    const rows = this.statements.get('SELECT collection, key, body FROM checkpoint_entities WHERE name = ?').raw(true).iterate(name) as IterableIterator<
      [string, string, string]
    >;
    for (const [collection, key, body] of rows) {
      const entities = collections.get(collection);
      if (entities) entities[key] = JSON.parse(body);
    }
    return state;
  }

  private loadJson(name: string): { position: number; state: string } | null {
    if (!this.hasTable()) return null;
    return (this.statements.get('SELECT position, state FROM checkpoints WHERE name = ?').get(name) as { position: number; state: string } | undefined) ?? null;
  }

  save<State>(name: string, position: number, state: State, savedAt: Date): void {
    this.saveJson(name, position, JSON.stringify(state), savedAt);
  }

  /**
   * save() of a state already serialised: a whole state in one row. It supersedes a save
   * of `name` by entities: that save's position row is dropped, so load() reads this one;
   * its entity rows are left for the next save by entities, which replaces them all (a CLI
   * rebuild's promotion, where one text is faster than rows, does not delete 225,000 rows).
   */
  saveJson(name: string, position: number, json: string, savedAt: Date): void {
    this.db.transaction(() => {
      this.writeRow(name, position, json, savedAt);
      this.drop(entitiesRow(name));
    })();
  }

  private writeRow(name: string, position: number, json: string, savedAt: Date): void {
    this.statements
      .get(
        `INSERT INTO checkpoints (name, position, state, saved_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET position = excluded.position, state = excluded.state, saved_at = excluded.saved_at`,
      )
      .run(name, position, json, savedAt.toISOString());
  }

  /**
   * Saves a state entity by entity, in one transaction (the caller's, if one is open):
   * a delta writes only what changed, so a big state's checkpoint costs what its last
   * seconds changed, not the whole state (a 1,000,000-event ledger's view is 108 MB of
   * JSON). A full save replaces every entity and the whole-state row of `name`, if any.
   * A delta is written only over the save it was taken against: if another writer saved
   * this name since (a CLI rebuild's promotion, beside the running server), it writes
   * nothing and answers false, and the caller saves the whole state.
   */
  saveEntities(name: string, checkpoint: EntityCheckpoint, savedAt: Date): boolean {
    const upsert = this.statements.get(
      `INSERT INTO checkpoint_entities (name, collection, key, body) VALUES (?, ?, ?, ?)
       ON CONFLICT(name, collection, key) DO UPDATE SET body = excluded.body`,
    );
    const remove = this.statements.get('DELETE FROM checkpoint_entities WHERE name = ? AND collection = ? AND key = ?');
    return this.db.transaction(() => {
      if (!checkpoint.full && this.loadJson(entitiesRow(name))?.position !== checkpoint.since) return false;
      if (checkpoint.full) {
        this.statements.get('DELETE FROM checkpoint_entities WHERE name = ?').run(name);
        this.drop(name);
      } else for (const [collection, keys] of checkpoint.gone) for (const key of keys) remove.run(name, collection, key);
      // In key order within each collection, as changedEntities gives them: rows land at the B-tree's end on a full save.
      for (const collection of [...checkpoint.changed.keys()].sort()) {
        for (const [key, body] of checkpoint.changed.get(collection)!) upsert.run(name, collection, key, body);
      }
      this.writeRow(entitiesRow(name), checkpoint.position, JSON.stringify(checkpoint.meta), savedAt);
      return true;
    })();
  }

  drop(name: string): void {
    this.statements.get('DELETE FROM checkpoints WHERE name = ?').run(name);
  }

  close(): void {
    if (this.ownsDb) this.db.close();
  }

  private hasTable(): boolean {
    return this.statements.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get() !== undefined;
  }
}
