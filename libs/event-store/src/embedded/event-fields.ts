import type Database from 'better-sqlite3';
import type { RecordedEvent } from '../envelope';
import type { UpcasterRegistry } from '../upcasting/upcaster-registry';
import { EVENT_COLUMNS, type StoredEventRow } from './event-row';

/** A field of an event's data, by its keys from the top (`['owner', 'token']` is data.owner.token). */
export type DataPath = readonly string[];

/** An event as a reader that files it needs it: where it is, and chosen string fields of its data. */
export interface EventFields {
  position: number;
  type: string;
  stream: string;
  recordedAt: string;
  /** Per path asked for, the string found there in the event's data (in its current shape), or null: absent, or not a string. */
  fields: (string | null)[];
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The string at `path` in `data`, or null: what the SQL below finds there, computed in JavaScript. */
export const stringAt = (data: unknown, path: DataPath): string | null => {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'string' ? value : null;
};

type LocatedRow = [position: number, type: string, stream: string, recordedAt: string];
type Row = [
  position: number,
  type: string,
  stream: string,
  recordedAt: string,
  metadataType: string | null,
  versionType: string | null,
  version: number | null,
  escapes: number,
  ...rest: unknown[],
];

/**
 * Reads pages of events with SQLite picking the fields out of each event's data, so neither
 * the data nor the metadata is parsed in JavaScript: the audit index's rebuild thread needs
 * a few strings of each event, not the objects V8 would build of each. An event not in its
 * type's current shape is read whole and upcast, and its fields taken from that, exactly as
 * every other reader sees it.
 */
export class EventFieldReader {
  private readonly page: Database.Statement<[number, number], Row>;
  /** Where each event of the page is, nothing else: for a caller that has its fields already. */
  private readonly located: Database.Statement<[number, number], LocatedRow>;
  private readonly whole: Database.Statement<[number], StoredEventRow>;

  constructor(
    db: Database.Database,
    private readonly paths: readonly DataPath[],
    private readonly upcasters: UpcasterRegistry,
    private readonly toEvent: (row: StoredEventRow) => RecordedEvent,
  ) {
    const fields = paths.map((path) => {
      if (path.length === 0 || !path.every((key) => KEY.test(key))) throw new TypeError(`not a data path of plain keys: ${JSON.stringify(path)}`);
      const at = `'$.${path.join('.')}'`;
      return `CASE json_type(data, ${at}) WHEN 'text' THEN data ->> ${at} END`;
    });
    // `escapes`: whether the data holds a \u escape, which SQLite's fields need to know (below).
    this.page = db
      .prepare<[number, number], Row>(
        `SELECT position, type, stream, recorded_at, json_type(metadata), json_type(metadata, '$.schemaVersion'), metadata ->> '$.schemaVersion', instr(data, '\\u')${fields.map((column) => `, ${column}`).join('')} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
      )
      .raw(true);
    this.located = db
      .prepare<[number, number], LocatedRow>(`SELECT position, type, stream, recorded_at FROM events WHERE position > ? ORDER BY position LIMIT ?`)
      .raw(true);
    this.whole = db.prepare<[number], StoredEventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position = ?`).raw(true);
  }

  /**
   * The page after `afterPosition`. `given`: the fields of these events, already taken from
   * them in their current shape (a reader that parsed them, `paths.length` a row in order),
   * so SQLite reads only where each event is (locatedAfter); the page must then be exactly as long.
   */
  readAfter(afterPosition: number, maxCount: number, given?: readonly (string | null)[]): EventFields[] {
    if (given) return this.locatedAfter(afterPosition, maxCount, given);
    const count = this.paths.length;
    const rows = this.page.all(afterPosition, maxCount);
    const events = new Array<EventFields>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const [position, type, stream, recordedAt, metadataType, versionType, version, escapes] = row;
      // The stored shape is the current one only for an object whose schemaVersion is absent (version 1) or an integer equal to it.
      const stored = versionType === null ? 1 : versionType === 'integer' ? version : null;
      // JSON.stringify writes \u only for control characters and lone surrogates; SQLite turns an
      // escaped lone surrogate into bytes that are not UTF-8 (read back as three U+FFFD, where V8
      // keeps the surrogate), so data holding any \u is read in JavaScript.
      if (metadataType === 'object' && stored === this.upcasters.currentVersion(type) && escapes === 0) {
        events[i] = { position, type, stream, recordedAt, fields: row.slice(8, 8 + count) as (string | null)[] };
      } else {
        events[i] = this.upcast(position);
      }
    }
    return events;
  }

  /**
   * The page with the fields given: its reader took them from each event in its current
   * shape, so it upcast each (or refused one from the future), and an upcaster changes only
   * the data. Where each event is, as stored, is then all there is to read: not the metadata
   * whose version the other path checks (half of that path's time on the bench's log).
   */
  private locatedAfter(afterPosition: number, maxCount: number, given: readonly (string | null)[]): EventFields[] {
    const count = this.paths.length;
    const rows = this.located.all(afterPosition, maxCount);
    if (given.length !== rows.length * count) {
      throw new Error(`fields given for ${given.length / count} events after position ${afterPosition}, the log holds ${rows.length} there`);
    }
    const events = new Array<EventFields>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const [position, type, stream, recordedAt] = rows[i];
      events[i] = { position, type, stream, recordedAt, fields: given.slice(i * count, (i + 1) * count) };
    }
    return events;
  }

  /** One event read whole and upcast (or refused, as from the future), its fields taken in JavaScript. */
  private upcast(position: number): EventFields {
    const row = this.whole.get(position)!;
    const stored = this.toEvent(row);
    const event = this.upcasters.upcast(stored);
    return {
      position,
      type: event.type,
      stream: event.stream,
      recordedAt: event.recordedAt,
      fields: this.paths.map((path) => stringAt(event.data, path)),
    };
  }
}
