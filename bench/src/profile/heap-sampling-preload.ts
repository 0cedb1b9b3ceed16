/**
 * Loaded into the server with `node -r` by allocations-per-request.js. When its measured
 * window opens (measured-window.ts) the main thread starts V8's sampling heap profiler,
 * keeping the samples of objects already collected (so it counts what a request allocates,
 * not what survives it); when it closes it writes the profile to LEDGER_HEAP_PROFILE_FILE,
 * whole. Worker threads load it too and do nothing.
 */
import { Session } from 'node:inspector';
import { isMainThread } from 'node:worker_threads';
import { onMeasuredWindow, writeWhole } from './measured-window';

const file = process.env.LEDGER_HEAP_PROFILE_FILE;
if (isMainThread && file) {
  const session = new Session();
  session.connect();
  const fail = (error: Error | null) => {
    if (error) process.stderr.write(`heap sampling: ${error.message}\n`);
  };
  onMeasuredWindow(
    () => {
      // (These two options are newer than @types/node's description of the method.)
      const options = { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
      session.post('HeapProfiler.enable', () => session.post('HeapProfiler.startSampling', options as never, fail));
    },
    () =>
      session.post('HeapProfiler.stopSampling', (error, result) => {
        fail(error);
        if (result) writeWhole(file, JSON.stringify(result.profile));
      }),
  );
}
