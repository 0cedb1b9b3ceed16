/** Waits, checking every 5 ms, until `condition` holds; fails after a minute of the clock (however slowly timers fire) naming `what`. */
export const waitUntil = async (condition: () => boolean, what: string): Promise<void> => {
  const deadline = performance.now() + 60_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};
