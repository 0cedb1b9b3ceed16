import type { FastifyRequest } from 'fastify';

/** What became of a command: accepted, refused (a decision, with its refusal code), invalid (bad input, with its code), unavailable (the disk refused the write) or error. */
export interface CommandOutcome {
  outcome: 'accepted' | 'refused' | 'invalid' | 'unavailable' | 'error';
  code: string;
}

/** By fastify's request: the guard and the exception filter are handed the same one. */
const failures = new WeakMap<FastifyRequest, CommandOutcome>();

/**
 * Errors are classified once, where they become HTTP (LedgerExceptionFilter): the filter
 * notes the outcome here and the command metric reads it when the answer has gone out.
 */
export const noteCommandFailure = (request: FastifyRequest, outcome: CommandOutcome): void => {
  failures.set(request, outcome);
};

/** The outcome of a command whose answer went out with `statusCode`: the filter's note, else accepted. */
export const commandOutcomeOf = (request: FastifyRequest, statusCode: number): CommandOutcome =>
  failures.get(request) ?? (statusCode < 400 ? { outcome: 'accepted', code: '' } : { outcome: 'error', code: String(statusCode) });
