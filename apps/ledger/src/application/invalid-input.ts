/**
 * Input that passed validation but is wrong in context (against the clock, the
 * configuration or another field): the exception filter answers 400 naming the problem.
 * Handlers throw this, never an HTTP exception.
 */
export class InvalidInput extends Error {
  override readonly name = 'InvalidInput';
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}
