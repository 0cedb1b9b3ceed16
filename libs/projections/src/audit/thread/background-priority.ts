import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** What lowering a thread's priority did: its new nice value and kernel thread id, or why nothing changed. */
export type ThreadPriority = { nice: number; threadId: number } | { unchanged: string };

/**
 * Gives the calling thread the nice value `nice` (1-19: the higher, the less CPU it gets
 * while other threads want the cores). Linux keeps a nice value per thread, and
 * `/proc/thread-self` names the caller's kernel thread, so a worker_threads thread can lower
 * its own priority without touching the rest of the process; raising it needs no
 * privilege. Where either is missing (another OS) nothing changes, and the reason is
 * returned for the caller to say once.
 */
export const lowerThisThreadsPriority = (nice: number): ThreadPriority => {
  if (!Number.isInteger(nice) || nice < 1 || nice > 19) throw new RangeError(`nice must be an integer from 1 to 19, got ${nice}`);
  let threadId: number;
  try {
    threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return { unchanged: 'this system has no /proc/thread-self (per-thread priority is Linux only)' };
  }
  try {
    setPriority(threadId, nice);
  } catch (error) {
    return { unchanged: `the kernel refused nice ${nice} for thread ${threadId}: ${(error as Error).message}` };
  }
  return { nice, threadId };
};
