import { jsonEvent } from '@eventstore/db-client';
import type { EventData, JSONType, RecordedEvent as ClientRecordedEvent } from '@eventstore/db-client';
import type { EventMetadata, NewEvent, RecordedEvent } from '../envelope';
import { revisionFromBigInt } from './expected-revision.mapping';
import { encodePosition } from './position.codec';

/**
 * Canonical (lowercase) UUID text. EventStoreDB stores an event id as a 128-bit GUID and
 * returns it lowercase, so only the lowercase form survives a round trip unchanged.
 */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** A NewEvent the EventStoreDB adapter cannot store as given: a caller bug, refused before any I/O. */
export class InvalidEventError extends TypeError {
  override readonly name = 'InvalidEventError';
}

/** A stored event that is not in the ledger's shape (e.g. written by another tool). */
export class UnreadableEventError extends Error {
  override readonly name = 'UnreadableEventError';
}

/** NewEvent -> the client's JSON event: same id (idempotent retries rely on it), type, data and metadata. */
export function toEventData(event: NewEvent): EventData {
  requireEventId(event.id);
  if (typeof event.type !== 'string' || event.type.length === 0 || event.type.startsWith('$')) {
    throw new InvalidEventError(
      `event ${event.id}: type must be a non-empty string not starting with '$' (reserved for EventStoreDB system events), got ${JSON.stringify(event.type)}`,
    );
  }
  requireJson(event.id, 'data', event.data);
  if (typeof event.metadata !== 'object' || event.metadata === null || Array.isArray(event.metadata)) {
    throw new InvalidEventError(`event ${event.id}: metadata must be an object`);
  }
  requireJson(event.id, 'metadata', event.metadata);
  return jsonEvent({
    id: event.id,
    type: event.type,
    data: event.data as JSONType,
    metadata: { ...event.metadata },
  });
}

/** The client's recorded event -> the port's envelope. */
export function toRecordedEvent(event: ClientRecordedEvent): RecordedEvent {
  const where = `event ${event.id} in stream ${event.streamId} at revision ${event.revision}`;
  if (!event.isJson) {
    throw new UnreadableEventError(`${where} is not JSON; this store only reads events the ledger wrote`);
  }
  const metadata: unknown = event.metadata;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata) || metadata instanceof Uint8Array) {
    throw new UnreadableEventError(`${where} has no JSON object metadata; this store only reads events the ledger wrote`);
  }
  if (!isLedgerMetadata(metadata)) {
    throw new UnreadableEventError(`${where} has no ledger metadata (correlationId, actor, schemaVersion); it was not written by the ledger`);
  }
  if (event.position === undefined) {
    throw new UnreadableEventError(`${where} came without a log position (EventStoreDB 22.6 or later is needed)`);
  }
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: metadata as EventMetadata,
    stream: event.streamId,
    revision: revisionFromBigInt(event.revision),
    position: encodePosition(event.position),
    recordedAt: event.created.toISOString(),
  };
}

/** The fields every ledger event's metadata has (envelope.ts); other writers' metadata lacks them. */
function isLedgerMetadata(metadata: object): boolean {
  const { correlationId, actor, schemaVersion } = metadata as Partial<EventMetadata>;
  return typeof correlationId === 'string' && typeof actor === 'string' && typeof schemaVersion === 'number';
}

function requireEventId(id: unknown): void {
  if (typeof id !== 'string' || !CANONICAL_UUID.test(id) || id === NIL_UUID) {
    throw new InvalidEventError(
      `event id must be a lowercase, non-nil UUID (EventStoreDB keys events by UUID and returns them lowercase), got ${JSON.stringify(id)}`,
    );
  }
}

function requireJson(id: string, field: string, value: unknown): void {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new InvalidEventError(`event ${id}: ${field} is not JSON-serialisable: ${(error as Error).message}`);
  }
  if (text === undefined) {
    throw new InvalidEventError(`event ${id}: ${field} is not a JSON value`);
  }
}
