import type Database from 'better-sqlite3';
import { lastPositionWhere, type EventStore, type RecordedEvent } from '@ledger/event-store';
import { ReadModelTables } from '../runtime/read-model-tables';
import { AUDIT_INDEX, auditTableNames } from './audit-index-tables';

/** Events read per page from the store past the index's end (those it has not folded yet). */
const TAIL_PAGE = 500;

type Row = { position: number; recordedAt: string };

/**
 * Points of the log found through the audit index, which holds every event's position and
 * recorded time: a position by time is a binary search over its rows (no store read), and
 * the event at or after a position is one read of the store, from the position of the row
 * before it. Only the events the index has not folded yet are read from the store, forwards
 * from its end: so a lookup costs a bounded number of reads on either store, where
 * EventStoreDB's own way walks $all back from its end a page per 500 events. Every position
 * sent to the store is one the log handed out (a row's), as EventStoreDB demands.
 *
 * Like the index's time filters, this takes recorded times to follow positions: the
 * embedded store's writer guarantees it; on EventStoreDB a failover to a leader whose clock
 * is behind can break it for the moments the clocks overlap.
 */
export class AuditIndexPoints {
  private readonly tables: ReadModelTables;

  constructor(
    private readonly db: Database.Database,
    private readonly log: EventStore,
  ) {
    this.tables = new ReadModelTables(db);
  }

  /** Position of the last event recorded at or before `time`; 0 if none. */
  async positionAtTime(time: Date): Promise<number> {
    const limit = time.toISOString();
    const index = this.index();
    let found = 0;
    if (index) {
      const row = this.db.prepare(`SELECT position, recorded_at AS recordedAt FROM "${index.table}" WHERE position >= ? ORDER BY position LIMIT 1`);
      found = await lastPositionWhere(
        (position) => (row.get(position) as Row | undefined) ?? null,
        index.position,
        (at) => at.recordedAt <= limit,
      );
      if (found < index.position) return found;
    }
    // Every event the index holds was recorded by then; so may be those it has not folded yet.
    for (let after = index?.position ?? 0; ;) {
      const page = await this.log.readAll({ fromPosition: after, maxCount: TAIL_PAGE });
      for (const event of page) {
        if (event.recordedAt > limit) return found;
        found = event.position;
      }
      if (page.length < TAIL_PAGE) return found;
      after = page[page.length - 1].position;
    }
  }

  /** The first event at or after `position` (any number), or null. */
  async eventAtOrAfter(position: number): Promise<RecordedEvent | null> {
    const index = this.index();
    if (index && position <= index.position) {
      const at = this.db.prepare(`SELECT position FROM "${index.table}" WHERE position >= ? ORDER BY position LIMIT 1`).pluck().get(position) as number;
      const before = this.db.prepare(`SELECT position FROM "${index.table}" WHERE position < ? ORDER BY position DESC LIMIT 1`).pluck().get(at) as
        number | undefined;
      const [event] = await this.log.readAll({ fromPosition: before ?? 0, maxCount: 1 });
      if (event?.position === at) return event;
      // The index does not match the log (it cannot, once ensureReadModelsFrom passed): the store's own way.
      return this.log.eventAtOrAfter(position);
    }
    for (let after = index?.position ?? 0; ;) {
      const page = await this.log.readAll({ fromPosition: after, maxCount: TAIL_PAGE });
      const event = page.find((candidate) => candidate.position >= position);
      if (event) return event;
      if (page.length < TAIL_PAGE) return null;
      after = page[page.length - 1].position;
    }
  }

  /** The current generation's table and the position it reflects; null before any is built. */
  private index(): { table: string; position: number } | null {
    const current = this.tables.current(AUDIT_INDEX);
    return current ? { table: auditTableNames(current.generation).events, position: current.position } : null;
  }
}
