import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AuditLoaded, AuditLoadTask, AuditThreadMessage } from './audit-index-worker';
import type { RebuildStep } from './rebuild-read-models';

/** Starts the audit index's thread; `done` settles with what it filled, `stop` ends it early. */
export const startAuditWorker = (task: AuditLoadTask, onStep: (step: RebuildStep) => void): { done: Promise<AuditLoaded>; stop: () => Promise<number> } => {
  // A larger young generation: the thread allocates a page of events after another, and fewer scavenges copy less (about 8% of its CPU).
  const worker = new Worker(join(__dirname, 'audit-index-worker.js'), {
    workerData: task,
    transferList: task.fieldsFromMain ? [task.fieldsFromMain.port] : [],
    resourceLimits: { maxYoungGenerationSizeMb: 96 },
  });
  const done = new Promise<AuditLoaded>((resolve, reject) => {
    let loaded: AuditLoaded | null = null;
    worker.on('message', (message: AuditThreadMessage) => {
      if ('loaded' in message) loaded = message.loaded;
      else onStep({ thread: 'audit', step: message.step, at: message.at });
    });
    // An error from the thread arrives as a copy (SqliteError's class may not survive, its code does):
    // kept as the cause, so a full disk is still told apart (storageFaultCodeOf follows causes).
    worker.once('error', (error: unknown) =>
      reject(new Error(`the audit index's rebuild thread failed: ${(error as { message?: unknown } | null)?.message ?? String(error)}`, { cause: error })),
    );
    worker.once('exit', (code) =>
      loaded ? resolve(loaded) : reject(new Error(`the audit index's rebuild thread stopped (exit code ${code}) before it finished`)),
    );
  });
  // Settled by whoever awaits it; never an unhandled rejection when the fold fails first.
  done.catch(() => undefined);
  return { done, stop: () => worker.terminate() };
};
