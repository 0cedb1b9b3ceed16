/**
 * The one event envelope. Every adapter stores and returns exactly this shape,
 * so projections, the process manager and audit never care which store runs.
 */
export interface EventMetadata {
  /** Ties together everything one inbound request caused. */
  correlationId: string;
  /** The event (or request) that directly caused this one; null for a user command. */
  causationId: string | null;
  /** The authenticated principal (or system component) that caused the event. */
  actor: string;
  /** The client's idempotency key, when the command carried one. */
  requestId: string | null;
  /** Version of the `data` shape, so old events can be upcast when it changes. */
  schemaVersion: number;
}

/** An event about to be appended. `id` makes retried appends idempotent. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  id: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
}

/** An event as the store recorded it. */
export interface RecordedEvent<Type extends string = string, Data = unknown> extends NewEvent<Type, Data> {
  stream: string;
  /** 0-based position of the event within its stream. */
  revision: number;
  /**
   * Global order across all streams: strictly increasing, not necessarily dense.
   * Positions start above 0, so 0 means "before the first event".
   */
  position: number;
  /** ISO-8601 UTC time the store recorded the event. */
  recordedAt: string;
}

/**
 * The envelope's fields as a plain object, in one fixed order: what a reader of any event can
 * see, whatever object holds it (an event whose metadata is parsed on first read becomes plain).
 */
export const plainEnvelope = <Type extends string, Data>(event: RecordedEvent<Type, Data>): RecordedEvent<Type, Data> => ({
  id: event.id,
  type: event.type,
  stream: event.stream,
  revision: event.revision,
  position: event.position,
  recordedAt: event.recordedAt,
  data: event.data,
  metadata: event.metadata,
});
