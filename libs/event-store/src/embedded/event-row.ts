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

/**
 * The event's envelope as JSON, spliced from the stored text (data and metadata are
 * already JSON: no parse-and-print again). Field order as RecordedEvent's: id, type,
 * stream, revision, position, recordedAt, data, metadata. EventFieldReader splices the same
 * in SQL: a change here is a change there.
 */
export const envelopeJsonOfRow = (
  position: number,
  eventId: string,
  stream: string,
  revision: number,
  type: string,
  data: string,
  metadata: string,
  recordedAt: string,
): string =>
  `{"id":${JSON.stringify(eventId)},"type":${JSON.stringify(type)},"stream":${JSON.stringify(stream)},"revision":${revision},"position":${position},"recordedAt":${JSON.stringify(recordedAt)},"data":${data},"metadata":${metadata}}`;

const storedJson = new WeakMap<RecordedEvent, string>();

/** An event read from the log together with its envelope JSON, remembered for storedEnvelopeJson. */
export const withStoredJson = (event: RecordedEvent, json: string): RecordedEvent => {
  storedJson.set(event, json);
  return event;
};

/** A row as a RecordedEvent that keeps its envelope JSON (see storedEnvelopeJson). */
export const toRecordedEventWithJson = (row: EventRow): RecordedEvent =>
  withStoredJson(
    toRecordedEvent(row),
    envelopeJsonOfRow(row.position, row.event_id, row.stream, row.revision, row.type, row.data, row.metadata, row.recorded_at),
  );

/**
 * The envelope JSON of an event this process read from the embedded store's log (the
 * live subscription's pages), or undefined: lets the audit index store the event without
 * printing it again.
 */
export const storedEnvelopeJson = (event: RecordedEvent): string | undefined => storedJson.get(event);
