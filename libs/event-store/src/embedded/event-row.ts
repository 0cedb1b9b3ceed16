import type { RecordedEvent } from '../envelope';

/** One row of the `events` table, as SELECT * returns it. */
export interface EventRow {
  position: number;
  event_id: string;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

export const EVENT_COLUMNS = 'position, event_id, stream, revision, type, data, metadata, recorded_at';

/** One row of the `events` table as EVENT_COLUMNS reads it with `.raw(true)` (an array, no object a row). */
export type StoredEventRow = [
  position: number,
  eventId: string,
  stream: string,
  revision: number,
  type: string,
  data: string,
  metadata: string,
  recordedAt: string,
];

export const toRecordedEvent = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  type: row.type,
  stream: row.stream,
  revision: row.revision,
  position: row.position,
  recordedAt: row.recorded_at,
  data: JSON.parse(row.data) as unknown,
  metadata: JSON.parse(row.metadata) as RecordedEvent['metadata'],
});
