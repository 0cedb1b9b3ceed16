import type Database from 'better-sqlite3';
import { generationTable } from '../runtime/read-model-tables';

/** The audit index's name in the read-model file; bump the version when its rows change shape. */
export const AUDIT_INDEX = 'audit-index.v1';

export interface AuditTableNames {
  events: string;
  tokens: string;
}

export const auditTableNames = (generation: number): AuditTableNames => ({
  events: generationTable(`${AUDIT_INDEX} events`, generation),
  tokens: generationTable(`${AUDIT_INDEX} tokens`, generation),
});

export const auditTablesOf = (generation: number): string[] => Object.values(auditTableNames(generation));

/**
 * One row per event, with the fields audit queries filter by and the event's JSON.
 * `tokens` remembers which consumer each token was issued to, so every later event
 * naming the token (deployment reports, releases, refusals) is indexed under that
 * consumer's controller and model too.
 */
export const createAuditTables = (db: Database.Database, names: AuditTableNames): void => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS "${names.events}" (
      position       INTEGER PRIMARY KEY,
      stream         TEXT NOT NULL,
      type           TEXT NOT NULL,
      recorded_at    TEXT NOT NULL,
      node_id        TEXT,
      token          TEXT,
      ip             TEXT,
      controller     TEXT,
      model          TEXT,
      actor          TEXT,
      correlation_id TEXT,
      event          TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS "${names.tokens}" (
      token      TEXT PRIMARY KEY,
      controller TEXT NOT NULL,
      model      TEXT NOT NULL
    ) WITHOUT ROWID;
  `);
};

/**
 * The filter indexes, each ending in position so a filtered page is an index range.
 * Time ranges need none: recorded times follow positions, so they become position ranges.
 */
export const createAuditIndexes = (db: Database.Database, names: AuditTableNames): void => {
  const t = names.events;
  db.exec(`
    CREATE INDEX IF NOT EXISTS "${t}_node" ON "${t}" (node_id, position) WHERE node_id IS NOT NULL;
    CREATE INDEX IF NOT EXISTS "${t}_token" ON "${t}" (token, position) WHERE token IS NOT NULL;
    CREATE INDEX IF NOT EXISTS "${t}_ip" ON "${t}" (ip, position) WHERE ip IS NOT NULL;
    CREATE INDEX IF NOT EXISTS "${t}_model" ON "${t}" (controller, model, position) WHERE controller IS NOT NULL;
    CREATE INDEX IF NOT EXISTS "${t}_type" ON "${t}" (type, position);
  `);
};
