import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openReadModelDatabase, READ_MODEL_PAGE_SIZE } from './read-model-database';

/**
 * Issue 16, point 4: a new read-model file takes big pages (the rebuild writes a quarter of
 * the pages), and a file made before keeps its own: it still opens, shared and in bulk,
 * and keeps what it holds.
 */
describe('the read-model file', () => {
  const inTempDir = async (body: (dir: string) => void) => {
    const dir = await mkdtemp(join(tmpdir(), 'read-model-db-'));
    try {
      body(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  it('is made with 32 KB pages, in WAL mode', () =>
    inTempDir((dir) => {
      const db = openReadModelDatabase(join(dir, 'read-models.sqlite'));
      try {
        assert.equal(READ_MODEL_PAGE_SIZE, 32_768);
        assert.equal(db.pragma('page_size', { simple: true }), READ_MODEL_PAGE_SIZE);
        assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      } finally {
        db.close();
      }
    }));

  it('made with 8 KB pages by an older version, keeps them and its rows when opened shared and in bulk', () =>
    inTempDir((dir) => {
      const file = join(dir, 'read-models.sqlite');
      const older = new Database(file);
      older.pragma('page_size = 8192');
      older.pragma('journal_mode = WAL');
      older.exec('CREATE TABLE kept (value TEXT)');
      older.prepare('INSERT INTO kept VALUES (?)').run('before the upgrade');
      older.close();
      for (const mode of ['shared', 'bulk'] as const) {
        const db = openReadModelDatabase(file, { mode });
        try {
          assert.equal(db.pragma('page_size', { simple: true }), 8192);
          db.prepare('INSERT INTO kept VALUES (?)').run(mode);
          assert.deepEqual(
            db.prepare('SELECT value FROM kept ORDER BY rowid').pluck().all(),
            mode === 'shared' ? ['before the upgrade', 'shared'] : ['before the upgrade', 'shared', 'bulk'],
          );
        } finally {
          db.close();
        }
      }
    }));
});
