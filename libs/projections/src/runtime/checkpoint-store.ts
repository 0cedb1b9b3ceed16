import Database from 'better-sqlite3';

export interface StoredCheckpoint<State> {
  position: number;
  state: State;
}

/**
 * The read-model database: a SQLite file of its own, so the event store can be a
 * remote one. A projection's data and the position it reflects are written in one
 * row, hence one transaction: they can never disagree after a crash.
 */
export class CheckpointStore {
  private readonly db: Database.Database;

  private constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // A lost checkpoint only means more catch-up from the log, so no fsync per save.
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS checkpoints (
      name TEXT PRIMARY KEY,
      position INTEGER NOT NULL,
      state TEXT NOT NULL,
      saved_at TEXT NOT NULL
    )`);
  }

  static open(file: string): CheckpointStore {
    return new CheckpointStore(file);
  }

  load<State>(name: string): StoredCheckpoint<State> | null {
    const row = this.db.prepare('SELECT position, state FROM checkpoints WHERE name = ?').get(name) as
      | { position: number; state: string }
      | undefined;
    return row ? { position: row.position, state: JSON.parse(row.state) as State } : null;
  }

  save<State>(name: string, position: number, state: State, savedAt: Date): void {
    this.db
      .prepare(
        `INSERT INTO checkpoints (name, position, state, saved_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET position = excluded.position, state = excluded.state, saved_at = excluded.saved_at`,
      )
      .run(name, position, JSON.stringify(state), savedAt.toISOString());
  }

  drop(name: string): void {
    this.db.prepare('DELETE FROM checkpoints WHERE name = ?').run(name);
  }

  close(): void {
    this.db.close();
  }
}
