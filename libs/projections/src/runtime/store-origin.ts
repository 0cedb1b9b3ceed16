import type Database from 'better-sqlite3';
import type { EventStore } from '@ledger/event-store';

/** The read-model file was folded from another event store: resuming it would mix two logs. */
export class ForeignReadModelError extends Error {
  override readonly name = 'ForeignReadModelError';
}

interface Origin {
  id: string;
  position: number;
}

/**
 * Checks, before any read model resumes, that the read-model file was built from this event
 * store, and records the store it belongs to the first time. A store is known by its first
 * event (id and position): another server, a recreated database or the embedded file give a
 * different one (positions are log offsets on EventStoreDB, row numbers in the embedded
 * file), while a replica or a restored backup of the same log gives the same. Without this a
 * read model would resume another log from a foreign position: on EventStoreDB a position
 * that is no event's, which the server refuses, or silently the wrong events.
 * A file from before this check, or built while the store was empty, is adopted.
 */
export const ensureReadModelsFrom = async (db: Database.Database, store: EventStore, file: string): Promise<void> => {
  db.exec('CREATE TABLE IF NOT EXISTS store_origin (id INTEGER PRIMARY KEY CHECK (id = 1), first_event_id TEXT NOT NULL, first_position INTEGER NOT NULL)');
  const first = (await store.readAll({ maxCount: 1 }))[0] ?? null;
  const recorded = db.prepare('SELECT first_event_id AS id, first_position AS position FROM store_origin').get() as Origin | undefined;
  if (recorded === undefined) {
    if (first !== null) db.prepare('INSERT INTO store_origin (id, first_event_id, first_position) VALUES (1, ?, ?)').run(first.id, first.position);
    return;
  }
  if (first !== null && first.id === recorded.id && first.position === recorded.position) return;
  const current = first === null ? 'this store is empty' : `this store's first event is ${first.id} at position ${first.position}`;
  throw new ForeignReadModelError(
    `the read models in ${file} were built from another event store (first event ${recorded.id} at position ${recorded.position}; ${current}). ` +
      'Refusing to resume them from a foreign position: point LEDGER_READ_MODEL_DIR at an empty directory, or move the file away, to rebuild them from this store.',
  );
};
