/** A stream name the EventStoreDB adapter refuses: a caller bug, refused before any I/O. */
export class InvalidStreamNameError extends TypeError {
  override readonly name = 'InvalidStreamNameError';
}

/**
 * Ledger streams are plain names (`node-{nodeId}`, `ip-{ip}`). A `$` prefix is EventStoreDB's
 * mark for its own streams, which readAll and subscriptions leave out: an event appended
 * there would vanish from the global log, so such names are refused.
 */
export function requireStreamName(stream: unknown): string {
  if (typeof stream !== 'string' || stream.length === 0 || stream.startsWith('$')) {
    throw new InvalidStreamNameError(
      `stream name must be a non-empty string not starting with '$' (reserved for EventStoreDB system streams), got ${JSON.stringify(stream)}`,
    );
  }
  return stream;
}
