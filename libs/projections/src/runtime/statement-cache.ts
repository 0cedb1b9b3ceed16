import type Database from 'better-sqlite3';

/**
 * Statements prepared once per connection and SQL text, then reused: preparing is a
 * parse and a plan each time, which the per-page and per-request paths should not pay.
 * (SQLite re-prepares a cached statement by itself if the schema changed under it.)
 */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  get<Params extends unknown[] = unknown[], Row = unknown>(sql: string): Database.Statement<Params, Row> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as unknown as Database.Statement<Params, Row>;
  }
}
