import type Database from 'better-sqlite3';

/**
 * Statements prepared once per connection and SQL text, then reused: preparing is a
 * parse and a plan each time, which the per-page and per-request paths should not pay.
 * (SQLite re-prepares a cached statement by itself if the schema changed under it.)
 */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement<unknown[], unknown>>();

  constructor(private readonly db: Database.Database) {}

  get<Params extends unknown[] = unknown[], Row = unknown>(sql: string): Database.Statement<Params, Row> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    // The SQL text fixes what a statement binds and answers: the caller names them once.
    return statement as Database.Statement<Params, Row>;
  }
}
