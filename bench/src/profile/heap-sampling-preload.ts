/**
 * Loaded into the server with `node -r` by allocations-per-request.js. On the first SIGWINCH
 * (a signal a server without a terminal never gets otherwise; SIGUSR2 stops the ledger)
 * the main thread starts V8's sampling heap profiler, keeping the samples of objects already
 * collected (so it counts what a request allocates, not what survives it); on the second it
 * writes the profile to LEDGER_HEAP_PROFILE_FILE (renamed into place once whole). Worker threads load it too and do nothing.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { isMainThread } from 'node:worker_threads';

const file = process.env.LEDGER_HEAP_PROFILE_FILE;
if (isMainThread && file) {
  const session = new Session();
  session.connect();
  let sampling = false;
  const fail = (error: Error | null) => {
    if (error) process.stderr.write(`heap sampling: ${error.message}\n`);
  };
  process.on('SIGWINCH', () => {
    if (!sampling) {
      sampling = true;
      // (These two options are newer than @types/node's description of the method.)
      const options = { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
      session.post('HeapProfiler.enable', () => session.post('HeapProfiler.startSampling', options as never, fail));
      return;
    }
    session.post('HeapProfiler.stopSampling', (error, result) => {
      fail(error);
      if (!result) return;
      // Whole or not at all: the tool reads the file as soon as it appears.
      writeFileSync(`${file}.partial`, JSON.stringify(result.profile));
      renameSync(`${file}.partial`, file);
    });
  });
}
