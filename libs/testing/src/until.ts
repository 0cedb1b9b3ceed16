/** Generous: the machine is shared and slow; waits end as soon as the condition holds. */
export const PATIENCE_MS = 60_000;

/**
 * Polls until `check` passes (returns without throwing), as an expect-style assertion
 * would; rethrows its last failure after `timeoutMs`. No fixed sleeps, no timing asserts.
 */
export const until = async <T>(check: () => Promise<T>, timeoutMs = PATIENCE_MS, what = 'condition'): Promise<T> => {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      last = error;
    }
    if (performance.now() > deadline) throw new Error(`${what} did not hold within ${timeoutMs} ms: ${(last as Error)?.message ?? last}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
};
