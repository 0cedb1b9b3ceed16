import type { ActualRevision, ExpectedRevision } from './expected-revision';

/** The one error every adapter raises when an expected revision does not hold. */
export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: ActualRevision,
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

export const isConcurrencyError = (error: unknown): error is ConcurrencyError => error instanceof ConcurrencyError;
