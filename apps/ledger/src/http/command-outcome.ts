/** What became of a command: accepted, refused (a decision, with its refusal code), invalid (bad input, with its code), unavailable (the disk refused the write) or error. */
export interface CommandOutcome {
  outcome: 'accepted' | 'refused' | 'invalid' | 'unavailable' | 'error';
  code: string;
}

/** Express hands guards and filters the node request itself; other adapters wrap it (`raw`). */
const rawOf = (request: object): object => (request as { raw?: object }).raw ?? request;

const failures = new WeakMap<object, CommandOutcome>();

/**
 * Errors are classified once, where they become HTTP (LedgerExceptionFilter): the filter
 * notes the outcome here and the command metric reads it when the answer has gone out.
 */
export const noteCommandFailure = (request: object, outcome: CommandOutcome): void => {
  failures.set(rawOf(request), outcome);
};

/** The outcome of a command whose answer went out with `statusCode`: the filter's note, else accepted. */
export const commandOutcomeOf = (request: object, statusCode: number): CommandOutcome =>
  failures.get(rawOf(request)) ?? (statusCode < 400 ? { outcome: 'accepted', code: '' } : { outcome: 'error', code: String(statusCode) });
