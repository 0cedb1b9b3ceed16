import { readdirSync, readFileSync } from 'node:fs';

/** CPU time a process has spent so far, all its threads together, in ns (the kernel's schedstat). */
const cpuNs = (pid: number): number => {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read: its time is gone with it.
    }
  }
  return total;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until none of `pids` is still working off an earlier load (a read model catching up,
 * a WAL checkpoint): each spent under `busyShare` of a core over one `windowMs`. Gives up after
 * `maxMs` and says how long it waited. A load measured right after another server's would
 * otherwise share the cores with that server's leftover work.
 */
export const untilIdle = async (pids: readonly number[], options: { windowMs?: number; busyShare?: number; maxMs?: number } = {}) => {
  const windowMs = options.windowMs ?? 200;
  const limitNs = windowMs * 1e6 * (options.busyShare ?? 0.05);
  const started = performance.now();
  let before = pids.map(cpuNs);
  for (;;) {
    await sleep(windowMs);
    const after = pids.map(cpuNs);
    const idle = after.every((ns, index) => ns - before[index] <= limitNs);
    if (idle || performance.now() - started >= (options.maxMs ?? 15_000)) return { idle, waitedMs: performance.now() - started };
    before = after;
  }
};
