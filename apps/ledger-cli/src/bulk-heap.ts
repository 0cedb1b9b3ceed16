import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * V8's heap flag for the commands that fold the whole log (rebuild, verify): a young
 * generation of 32 MB semi-spaces instead of Node's 16 MB. Such a fold allocates a page of
 * parsed events after another, and nearly all of it dies young; in a small nursery much of
 * it lives long enough to be copied by a scavenge first. On the bench's log of 1M events,
 * `ledger-cli rebuild` in four alternated pairs took 12.0, 12.0, 11.8 and 11.6 s against
 * 12.7, 12.7, 14.7 and 13.2 s with Node's 16 (about 8% less, on a target whose margin is
 * smaller than that); 64 and 128 were slower than 32. The audit index's thread gets the same
 * from its Worker's resourceLimits. (`--single-threaded-gc`, also tried, saved a median 0.6 s
 * of 13-16 s, under the 5% a mechanism must pay to stay.)
 */
export const BULK_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=32'];

/** Whether this process was started with a young-generation size of its own choosing (by us, or by the user). */
export const hasChosenHeap = (execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean =>
  [...execArgv, ...nodeOptions.split(/\s+/)].some((flag) => flag.startsWith('--max-semi-space-size'));

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs `script` again in a new Node process with BULK_HEAP_FLAGS (V8 sizes its heap at
 * start-up only), with this one's environment and stdio, and ends as
 * the child ended: its exit code, or the signal that stopped it. A signal sent to this
 * process is passed on, so a supervisor stopping the CLI stops the rebuild it started.
 */
export const relaunchWithBulkHeap = (script: string, argv: readonly string[]): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, ...BULK_HEAP_FLAGS, script, ...argv], { stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    for (const signal of FORWARDED) process.on(signal, forward);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const name of FORWARDED) process.off(name, forward);
      if (signal) {
        // End the way the child did, so a caller's shell sees the same signal.
        process.kill(process.pid, signal);
        // A signal this process ignores (none of the forwarded ones by now): the shell's convention.
        process.exitCode = 128 + (constants.signals[signal] ?? 0);
      } else process.exitCode = code ?? 1;
      resolve();
    });
  });
