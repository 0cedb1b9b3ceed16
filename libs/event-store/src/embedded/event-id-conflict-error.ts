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

  /** The same error again, from its parts and finished message (as it crosses from the writer thread). */
  static withMessage(stream: string, eventId: string, message: string): EventIdConflictError {
    const error = new EventIdConflictError(stream, eventId, '');
    error.message = message;
    return error;
  }
}
