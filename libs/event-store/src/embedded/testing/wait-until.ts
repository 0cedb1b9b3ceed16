/** Waits, checking every 5 ms, until `condition` holds; fails after a minute naming `what`. */
export const waitUntil = async (condition: () => boolean, what: string): Promise<void> => {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 60_000) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};
