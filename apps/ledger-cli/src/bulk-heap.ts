import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * V8's heap flags for the commands that fold the whole log (rebuild, verify).
 *
 * A young generation of three 32 MB semi-spaces' worth instead of Node's 16 MB. Such a fold
 * allocates a page of parsed events after another, and nearly all of it dies young; in a
 * small nursery much of it lives long enough to be copied by a scavenge first. On the bench's
 * log of 1M events the rebuild's main thread ran 252 scavenges for 2.2 s by default and 69
 * for 1.1 s with 64 (32 gave 1.6 s then). Since its snapshot chunks stay out of V8's
 * large-object space (stop 43), the young generation holds them too, and 32 is the quicker:
 * `ledger-cli rebuild`, four alternated pairs, 12.0, 12.0, 11.8, 11.6 s against 13.4, 12.0,
 * 12.4, 12.0 s with 64; three pairs of `rebuild-timeline.js`, 12.4-12.6 s against
 * 12.8-13.4 s; 128 was slower still, and Node's 16 too (four pairs: 12.7, 12.7, 14.7,
 * 13.2 s against 12.0, 11.5, 12.2, 11.9 s). The audit index's thread gets the same from its
 * Worker's resourceLimits.
 *
 * And V8's collector on the thread that allocates (`--single-threaded-gc`): a rebuild keeps
 * two threads of JavaScript busy (the fold, the audit index's thread) and SQLite's sorter
 * threads after them, so on two cores V8's helper threads for parallel scavenges and
 * concurrent marking only take turns with them. Without the helpers a rebuild of the bench's
 * 1M events used about 1.2 s less CPU (helpers 0.4-0.7 s instead of 2.2-3.1 s, the main
 * thread 0.9-1.0 s more, `rebuild-timeline.js`) and ended sooner in 23 of 35 alternated pairs
 * of the built CLI, later in 9 (by a median 0.6 s of 13-16 s; stop 52 in bench/README.md).
 */
export const BULK_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=32', '--single-threaded-gc'];

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
