import type { Database } from 'better-sqlite3';

/**
 * The store's tables, versioned with `PRAGMA user_version` so later changes are
 * ordered migrations: migration N takes the file from version N to N + 1.
 *
 * - `events`: the log. `position` is the global order; AUTOINCREMENT means a position
 *   is never handed out twice, even after a rolled-back append.
 * - `streams`: each stream's current revision, so checking an expected revision is
 *   one primary-key lookup whatever the stream's length.
 * - triggers: events are never updated or deleted, whoever holds the file.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE events (
    position    INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id    TEXT    NOT NULL UNIQUE,
    stream      TEXT    NOT NULL,
    revision    INTEGER NOT NULL CHECK (revision >= 0),
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL CHECK (json_valid(data)),
    metadata    TEXT    NOT NULL CHECK (json_valid(metadata)),
    recorded_at TEXT    NOT NULL,
    UNIQUE (stream, revision)
  );

  CREATE TABLE streams (
    stream   TEXT    PRIMARY KEY,
    revision INTEGER NOT NULL CHECK (revision >= 0)
  ) WITHOUT ROWID;

  CREATE TRIGGER events_are_never_updated BEFORE UPDATE ON events
  BEGIN
    SELECT RAISE(ABORT, 'events are immutable: UPDATE of events is refused');
  END;

  CREATE TRIGGER events_are_never_deleted BEFORE DELETE ON events
  BEGIN
    SELECT RAISE(ABORT, 'events are immutable: DELETE of events is refused');
  END;
  `,
];

/** The schema version this code reads and writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

const readSchemaVersion = (db: Database): number => db.pragma('user_version', { simple: true }) as number;

/**
 * Brings the file to SCHEMA_VERSION. Runs in an immediate transaction and re-reads
 * the version inside it, so two processes opening a new file at once migrate it once.
 * Refuses a file written by a newer version of this code.
 */
export const migrateSchema = (db: Database): void => {
  db.transaction(() => {
    const version = readSchemaVersion(db);
    if (version > SCHEMA_VERSION) {
      throw new Error(`event store file has schema version ${version}, newer than this code understands (${SCHEMA_VERSION})`);
    }
    for (let next = version; next < SCHEMA_VERSION; next++) {
      db.exec(MIGRATIONS[next]);
    }
    if (version !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
};
