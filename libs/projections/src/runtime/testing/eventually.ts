/** Polls until `condition` holds; fails naming `what` after 30 s. No fixed sleeps, no timing asserts. */
export const eventually = async (condition: () => boolean, what: string): Promise<void> => {
  const deadline = performance.now() + 30_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};
