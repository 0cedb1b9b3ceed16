import type Database from 'better-sqlite3';
import { generationTable } from '../runtime/read-model-tables';

/**
 * The audit index's name in the read-model file; bump the version when its rows change
 * shape or meaning, so a file indexed by older code is indexed again instead of mixed.
 * v2: a lease's renewal, release and expiry are filed under the lease's owner.
 * v3: no stream, actor or correlation_id columns (a timeline takes them from the event's
 * JSON, which it parses anyway), and no tokens or leases tables (a token's consumer and a
 * lease's owner are read back from the rows that named them): less for a rebuild to write.
 * v4: no copy of the event (a query reads it from the log by position); a lease's grant
 * row names the lease and its owner, which the copy used to tell.
 * v5: a known event type is filed as its code (AUDIT_TYPE_CODES), and the indexes end in
 * the row's own position (its rowid) instead of a copy of it: 18% less to write and index.
 */
export const AUDIT_INDEX = 'audit-index.v5';

export interface AuditTableNames {
  events: string;
}

export const auditTableNames = (generation: number): AuditTableNames => ({
  events: generationTable(`${AUDIT_INDEX} events`, generation),
});

export const auditTablesOf = (generation: number): string[] => Object.values(auditTableNames(generation));

/**
 * One row per event, with the fields audit queries filter by; the event itself stays in
 * the log, which a query reads by position (a copy here was the log's size again, and
 * half of what a rebuild wrote). Every later event naming a token (deployment reports,
 * releases, refusals) is filed under the controller and model of the consumer it was
 * issued to; a lease's renewal, release and expiry (which name only the address and the
 * lease) under its owner: its token, its node, its consumer. The projector finds both in
 * the rows before (token, ip indexes): a lease's grant row keeps the lease's id and owner
 * (lease_id, lease_owner; null on every other row). `type` has no declared type, so
 * SQLite keeps each value as it is given: a known type's code (an integer) or, for any
 * other, its name (auditTypeValue).
 */
export const createAuditTables = (db: Database.Database, names: AuditTableNames): void => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS "${names.events}" (
      position    INTEGER PRIMARY KEY,
      type        NOT NULL,
      recorded_at TEXT NOT NULL,
      node_id     TEXT,
      token       TEXT,
      ip          TEXT,
      controller  TEXT,
      model       TEXT,
      lease_id    TEXT,
      lease_owner TEXT
    );
  `);
};

/**
 * The filter indexes. Each ends in position without naming it: an index's entries end in
 * the rowid, which position is, so a filtered page is an index range ordered by position
 * (SQLite's plan: "USING INDEX ... (node_id=? AND rowid>?)"), and naming it stored it twice.
 * Time ranges need none: recorded times follow positions, so they become position ranges.
 */
export const createAuditIndexes = (db: Database.Database, names: AuditTableNames): void => {
  const t = names.events;
  db.exec(`
    CREATE INDEX IF NOT EXISTS "${t}_node" ON "${t}" (node_id) WHERE node_id IS NOT NULL;
    CREATE INDEX IF NOT EXISTS "${t}_token" ON "${t}" (token) WHERE token IS NOT NULL;
    CREATE INDEX IF NOT EXISTS "${t}_ip" ON "${t}" (ip) WHERE ip IS NOT NULL;
    CREATE INDEX IF NOT EXISTS "${t}_model" ON "${t}" (controller, model) WHERE controller IS NOT NULL;
    CREATE INDEX IF NOT EXISTS "${t}_type" ON "${t}" (type);
  `);
};

/** Versions of the audit index other than this one that the file still lists (indexed by older code). */
export const otherAuditVersions = (db: Database.Database): string[] => {
  const listed = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'read_model_tables'").get() !== undefined;
  if (!listed) return [];
  return db.prepare("SELECT DISTINCT name FROM read_model_tables WHERE name LIKE 'audit-index.v%' AND name <> ?").pluck().all(AUDIT_INDEX) as string[];
};

/**
 * Drops the tables of other versions of the audit index: once this version is built they
 * are never read again, and on a big ledger they are the size of the log. (A read-model
 * file belongs to one ledger instance, so no older process still writes them.)
 */
export const dropOtherAuditVersions = (db: Database.Database): void => {
  const versions = otherAuditVersions(db);
  if (versions.length === 0) return;
  const prefixes = versions.map((name) => generationTable(name, 0).slice(0, -'g0'.length));
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  for (const table of tables) if (prefixes.some((prefix) => table.startsWith(prefix))) db.exec(`DROP TABLE IF EXISTS "${table}"`);
  const forget = db.prepare('DELETE FROM read_model_tables WHERE name = ?');
  for (const name of versions) forget.run(name);
};
