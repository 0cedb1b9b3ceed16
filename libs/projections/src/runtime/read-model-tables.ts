import type Database from 'better-sqlite3';
import { StatementCache } from './statement-cache';

export interface TableGeneration {
  generation: number;
  /** The log position this generation's tables reflect. */
  position: number;
}

/**
 * Read models kept in tables (the audit index, the view snapshots) are built into a
 * numbered generation of their tables. Queries read the current generation; a rebuild
 * fills a new one and promotes it in one transaction, so nobody ever reads a half-built
 * table, and a server and a CLI rebuild can share the file: each writer updates its own
 * generation's position in the same transaction as its rows, and a writer that finds
 * its generation superseded moves to the current one.
 */
export class ReadModelTables {
  private readonly statements: StatementCache;
  private tableSeen = false;

  constructor(private readonly db: Database.Database) {
    this.statements = new StatementCache(db);
    if (!db.readonly) {
      db.exec(`CREATE TABLE IF NOT EXISTS read_model_tables (
        name       TEXT    NOT NULL,
        generation INTEGER NOT NULL,
        position   INTEGER NOT NULL,
        current    INTEGER NOT NULL,
        PRIMARY KEY (name, generation)
      )`);
    }
  }

  /** The generation queries read, or null if the read model was never built. */
  current(name: string): TableGeneration | null {
    if (!this.exists()) return null;
    return (
      (this.statements.get('SELECT generation, position FROM read_model_tables WHERE name = ? AND current = 1').get(name) as TableGeneration | undefined) ??
      null
    );
  }

  position(name: string, generation: number): number | null {
    const row = this.statements.get('SELECT position FROM read_model_tables WHERE name = ? AND generation = ?').get(name, generation) as
      { position: number } | undefined;
    return row?.position ?? null;
  }

  /** A new, empty generation, not yet read by anyone. */
  allocate(name: string): number {
    return this.db
      .transaction(() => {
        const { next } = this.statements.get('SELECT COALESCE(MAX(generation), 0) + 1 AS next FROM read_model_tables WHERE name = ?').get(name) as {
          next: number;
        };
        this.statements.get('INSERT INTO read_model_tables (name, generation, position, current) VALUES (?, ?, 0, 0)').run(name, next);
        return next;
      })
      .immediate();
  }

  /** Records how far a generation got; call inside the transaction that wrote its rows. */
  advance(name: string, generation: number, position: number): void {
    this.statements.get('UPDATE read_model_tables SET position = ? WHERE name = ? AND generation = ?').run(position, name, generation);
  }

  /**
   * Makes `generation` the one queries read and forgets the older ones, whose tables
   * (named by `tablesOf`) are dropped in the same transaction.
   */
  promote(name: string, generation: number, tablesOf: (generation: number) => string[]): void {
    this.db
      .transaction(() => {
        this.statements.get('UPDATE read_model_tables SET current = (generation = ?) WHERE name = ?').run(generation, name);
        const older = this.statements.get('SELECT generation FROM read_model_tables WHERE name = ? AND generation < ?').all(name, generation) as {
          generation: number;
        }[];
        for (const { generation: old } of older) {
          for (const table of tablesOf(old)) this.db.exec(`DROP TABLE IF EXISTS "${table}"`);
        }
        this.statements.get('DELETE FROM read_model_tables WHERE name = ? AND generation < ?').run(name, generation);
      })
      .immediate();
  }

  /** Once there, the table stays (nothing drops it): asked until it is seen, then remembered. */
  private exists(): boolean {
    this.tableSeen ||= this.statements.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'read_model_tables'").get() !== undefined;
    return this.tableSeen;
  }
}

/** A table name for one generation of a read model's table: letters, digits and _ only. */
export const generationTable = (base: string, generation: number): string => `${base.replace(/[^A-Za-z0-9]+/g, '_')}_g${generation}`;
