/**
 * An append reuses event ids that are already stored, but not as an exact retry
 * (same stream, same ids, consecutive, same order). Nothing was written. Retrying
 * will not help: the caller is mixing up events.
 */
export class EventIdConflictError extends Error {
  override readonly name = 'EventIdConflictError';
  constructor(
    readonly stream: string,
    readonly eventId: string,
    reason: string,
  ) {
    super(`appendToStream(${stream}): event id ${eventId} ${reason}; nothing was written`);
  }
}
