import type { NewEvent } from '../envelope';
import type { ExpectedRevision } from '../expected-revision';

/** One event ready for an INSERT: data and metadata already serialized. */
export interface SerializedEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

/** A validated appendToStream call, waiting in the group-commit queue. */
export interface AppendRequest {
  stream: string;
  expectedRevision: ExpectedRevision;
  events: SerializedEvent[];
}

const toJson = (value: unknown, what: string): string => {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`${what} is not JSON-serializable: ${(error as Error).message}`);
  }
  if (json === undefined) throw new TypeError(`${what} is not JSON-serializable (got ${typeof value})`);
  return json;
};

const checkExpectedRevision = (expected: ExpectedRevision): void => {
  if (expected === 'no_stream' || expected === 'stream_exists' || expected === 'any') return;
  if (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0) return;
  throw new TypeError(`expectedRevision must be 'no_stream', 'stream_exists', 'any' or a revision >= 0, got ${String(expected)}`);
};

/**
 * Checks an append before it is queued, and serializes it, so that a bad argument
 * fails alone with a TypeError and never reaches (or aborts) a shared transaction.
 */
export const prepareAppend = (stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): AppendRequest => {
  if (typeof stream !== 'string' || stream === '') throw new TypeError('stream must be a non-empty string');
  checkExpectedRevision(expectedRevision);
  if (!Array.isArray(events) || events.length === 0) {
    throw new TypeError(`appendToStream(${stream}): at least one event is required`);
  }
  const seen = new Set<string>();
  const serialized = events.map((event, index): SerializedEvent => {
    const where = `appendToStream(${stream}) event #${index}`;
    if (typeof event.id !== 'string' || event.id === '') throw new TypeError(`${where}: id must be a non-empty string`);
    if (seen.has(event.id)) throw new TypeError(`${where}: id ${event.id} appears twice in one append`);
    seen.add(event.id);
    if (typeof event.type !== 'string' || event.type === '') throw new TypeError(`${where}: type must be a non-empty string`);
    if (typeof event.metadata !== 'object' || event.metadata === null) {
      throw new TypeError(`${where}: metadata must be an object`);
    }
    return {
      id: event.id,
      type: event.type,
      data: toJson(event.data, `${where} data`),
      metadata: toJson(event.metadata, `${where} metadata`),
    };
  });
  return { stream, expectedRevision, events: serialized };
};
