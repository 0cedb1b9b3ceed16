import type { Database, Statement } from 'better-sqlite3';
import type { RecordedEvent } from '../envelope';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from './event-row';

/** The read side: synchronous queries over the `events` table, statements prepared once. */
export class SqliteEventReader {
  private readonly streamFrom: Statement<[string, number], EventRow>;
  private readonly allAfter: Statement<[number, number], EventRow>;
  private readonly atPositions: Statement<[string], EventRow>;
  private readonly head: Statement<[], { head: number }>;

  constructor(db: Database) {
    this.streamFrom = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision`);
    this.allAfter = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`);
    this.atPositions = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE position IN (SELECT value FROM json_each(?)) ORDER BY position`);
    this.head = db.prepare('SELECT COALESCE(MAX(position), 0) AS head FROM events');
  }

  readStream(stream: string, fromRevision: number): RecordedEvent[] {
    return this.streamFrom.all(stream, fromRevision).map(toRecordedEvent);
  }

  /** Events with position > `afterPosition`, in global order, at most `maxCount`. */
  readAfter(afterPosition: number, maxCount: number): RecordedEvent[] {
    return this.allAfter.all(afterPosition, maxCount).map(toRecordedEvent);
  }

  /** The events at these positions, in log order (one query: what an audit page lists). */
  eventsAt(positions: readonly number[]): RecordedEvent[] {
    return this.atPositions.all(JSON.stringify(positions)).map(toRecordedEvent);
  }

  headPosition(): number {
    return this.head.get()?.head ?? 0;
  }
}
