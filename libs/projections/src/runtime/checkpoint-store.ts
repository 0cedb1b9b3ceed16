import type Database from 'better-sqlite3';
import { StatementCache } from './statement-cache';
import { openReadModelDatabase } from './read-model-database';

export interface StoredCheckpoint<State> {
  position: number;
  state: State;
}

/**
 * Checkpoints of in-memory projections, in the read-model database: a projection's
 * data and the position it reflects are written in one row, hence one transaction:
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
      )`);
    }
  }

  static open(file: string): CheckpointStore {
    return new CheckpointStore(openReadModelDatabase(file), true);
  }

  /** Checkpoints in a database someone else opened (and closes). */
  static on(db: Database.Database): CheckpointStore {
    return new CheckpointStore(db, false);
  }

  load<State>(name: string): StoredCheckpoint<State> | null {
    const row = this.loadJson(name);
    return row ? { position: row.position, state: JSON.parse(row.state) as State } : null;
  }

  private loadJson(name: string): { position: number; state: string } | null {
    if (!this.hasTable()) return null;
    return (this.statements.get('SELECT position, state FROM checkpoints WHERE name = ?').get(name) as { position: number; state: string } | undefined) ?? null;
  }

  save<State>(name: string, position: number, state: State, savedAt: Date): void {
    this.saveJson(name, position, JSON.stringify(state), savedAt);
  }

  /** save() of a state already serialised. */
  saveJson(name: string, position: number, json: string, savedAt: Date): void {
    this.statements
      .get(
        `INSERT INTO checkpoints (name, position, state, saved_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET position = excluded.position, state = excluded.state, saved_at = excluded.saved_at`,
      )
      .run(name, position, json, savedAt.toISOString());
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
