import type { Database } from 'better-sqlite3';
import type { AppendRequest } from '../append-request';
import { type WriteBatch, type WrittenBatch, sqliteBatchWriter } from '../sqlite-batch-writer';
import { SqliteStreamAppender } from '../sqlite-stream-appender';
import type { SqliteWriter } from './sqlite-writer';

/**
 * Writes on the caller's own connection, on the main thread: only for ':memory:'
 * databases, which a second connection (the writer thread's) could not see.
 */
export class InlineSqliteWriter implements SqliteWriter {
  private readonly writeBatch: WriteBatch;

  constructor(db: Database) {
    this.writeBatch = sqliteBatchWriter(db, new SqliteStreamAppender(db));
  }

  async commit(requests: AppendRequest[], clockTime: string): Promise<WrittenBatch> {
    return this.writeBatch(requests, clockTime);
  }

  async close(): Promise<void> {
    // The connection is the store's, closed by it.
  }
}
