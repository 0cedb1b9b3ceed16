/** The one retry policy for optimistic-concurrency conflicts. */
export interface RetryPolicy {
  maxAttempts: number;
  /** Delay before attempt n (1-based, n >= 2); jittered so racing writers spread out. */
  backoffMs(attempt: number, random: () => number): number;
}

export const conflictRetryPolicy: RetryPolicy = {
  maxAttempts: 20,
  backoffMs: (attempt, random) => Math.min(50, 2 ** Math.min(attempt, 6) * random()),
};

export class RetriesExhaustedError extends Error {
  override readonly name = 'RetriesExhaustedError';
  constructor(
    readonly stream: string,
    readonly attempts: number,
  ) {
    super(`stream ${stream}: still conflicting after ${attempts} attempts`);
  }
}
