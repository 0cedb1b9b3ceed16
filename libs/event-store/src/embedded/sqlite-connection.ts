import Database from 'better-sqlite3';
import { migrateSchema } from './schema';
import { ensurePrivateFile } from './private-files';
import type { ResolvedSqliteStoreOptions } from './sqlite-store-options';

/**
 * Opens one connection with the pragmas the store relies on, then migrates the schema.
 * `busy_timeout` comes first so that switching to WAL waits for other processes.
 * `synchronous` is per connection (never persisted), so it is set on every open.
 * A new file is created 0600 first, so its -wal and -shm files are private too.
 */
export const openSqliteConnection = (options: ResolvedSqliteStoreOptions): Database.Database => {
  ensurePrivateFile(options.file);
  const db = new Database(options.file);
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
    const journalMode = db.pragma('journal_mode = WAL', { simple: true });
    if (journalMode !== 'wal' && !db.memory) {
      throw new Error(`could not switch ${options.file} to WAL mode (journal_mode is ${String(journalMode)})`);
    }
    db.pragma(`synchronous = ${options.synchronous}`);
    db.pragma('foreign_keys = ON');
    migrateSchema(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
};
