import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** What lowering a thread's priority did: its new nice value and kernel thread id, or why nothing changed. */
export type ThreadPriority = { nice: number; threadId: number } | { unchanged: string };

/** The kernel's lowest priority. */
const NICEST = 19;

/**
 * Lowers the calling thread's priority by `steps` nice values (1-19), as `nice -n` does to a
 * command, capped at 19: relative to what the process was started with, so a ledger that
 * was itself started niced still gets its index thread below its request path, and nothing
 * ever asks for a higher priority (which needs privilege). Linux keeps a nice value per
 * thread, and `/proc/thread-self` names the caller's kernel thread, so a worker_threads
 * thread lowers its own without touching the rest of the process. Where either is missing
 * (another OS), or the thread is already at 19, nothing changes, and the reason is returned
 * for the caller to say once.
 */
export const lowerThisThreadsPriority = (steps: number): ThreadPriority => {
  if (!Number.isInteger(steps) || steps < 1 || steps > NICEST) throw new RangeError(`steps must be an integer from 1 to ${NICEST}, got ${steps}`);
  let threadId: number;
  try {
    threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return { unchanged: 'this system has no /proc/thread-self (per-thread priority is Linux only)' };
  }
  try {
    const started = getPriority(threadId);
    if (started >= NICEST) return { unchanged: `thread ${threadId} already has the lowest priority (nice ${started})` };
    const nice = Math.min(NICEST, started + steps);
    setPriority(threadId, nice);
    return { nice, threadId };
  } catch (error) {
    return { unchanged: `the kernel refused to lower thread ${threadId}'s priority: ${(error as Error).message}` };
  }
};
