import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves once `file` exists (a profiling preload renames it into place whole); `missing` says what never came. */
export const waitForFile = async (file: string, missing: string, timeoutMs = 60_000): Promise<void> => {
  for (let waited = 0; !existsSync(file); waited += 50) {
    if (waited > timeoutMs) throw new Error(`${missing} within ${timeoutMs / 1000} s`);
    await sleep(50);
  }
};
