/**
 * The live audit index on a thread of its own (worker_threads): it follows the embedded
 * store's file through a read-only handle and writes the index through its own connection
 * to the read-model file, so its page transactions (a tenth of the main thread's time per
 * command under load) never hold up request handling. The main thread keeps reading the
 * index; it learns the thread's position from its messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteReadOnlyEventStore, toWireError, type SubscriptionRestart } from '@ledger/event-store';
import { AuditIndexProjector } from '../audit-index-projector';
import { openReadModelDatabase } from '../../runtime/read-model-database';
import { ProjectorRunner } from '../../runtime/projector-runner';
import { LEDGER_UPCASTERS } from '../../upcasting/ledger-upcasters';
import { lowerThisThreadsPriority } from './background-priority';
import { progressOnWire, type AuditThreadSettings, type FromAuditThread, type ToAuditThread } from './audit-thread-protocol';

const run = (settings: AuditThreadSettings, tell: (message: FromAuditThread) => void, listen: (handler: (message: ToAuditThread) => void) => void): void => {
  let store: SqliteReadOnlyEventStore;
  let db: ReturnType<typeof openReadModelDatabase>;
  let runner: ProjectorRunner<AuditIndexProjector>;
  let opening = settings.eventFile;
  // Folding is background work: under load it takes the CPU the request path and the store's
  // writer leave, and catches up in larger pages (issue 16).
  const priority = settings.nice > 0 ? lowerThisThreadsPriority(settings.nice) : null;
  try {
    store = SqliteReadOnlyEventStore.open({
      file: settings.eventFile,
      upcasters: LEDGER_UPCASTERS,
      pollIntervalMs: settings.pollIntervalMs,
    });
    opening = settings.readModelFile;
    db = openReadModelDatabase(settings.readModelFile);
    runner = new ProjectorRunner(store, AuditIndexProjector.live(db), {
      onError: (error) => tell({ kind: 'error', error: toWireError(error) }),
      onRestart: (restart: SubscriptionRestart) =>
        tell({ kind: 'restart', restart: { ...restart, error: restart.error === undefined ? undefined : toWireError(restart.error) } }),
      minPageIntervalMs: settings.minPageIntervalMs,
      onAdvance: (position) => tell({ kind: 'advanced', position }),
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    tell({ kind: 'open-failed', error: toWireError(new Error(`the audit index's thread cannot open ${opening}: ${why}`)) });
    return;
  }
  listen((message) => {
    if (message.kind === 'poke') store.poke();
    else if (message.kind === 'hurry') {
      store.poke();
      void runner.waitFor(message.position, message.timeoutMs);
    } else if (message.kind === 'rebuild') {
      // The main thread refuses a second rebuild before asking; a refusal here still only answers.
      Promise.resolve()
        .then(() => runner.rebuild(AuditIndexProjector.rebuildOn(db), (progress) => tell({ kind: 'rebuild-progress', progress: progressOnWire(progress) })))
        .then(
          (result) => tell({ kind: 'rebuild-done', result }),
          (error: unknown) => tell({ kind: 'rebuild-failed', error: toWireError(error) }),
        );
    } else if (message.kind === 'stop') {
      void runner
        .stop()
        .then(() => store.close())
        .finally(() => {
          db.close();
          tell({ kind: 'stopped' });
        });
    }
  });
  runner.start();
  tell({ kind: 'ready', position: runner.position, priority });
};

if (parentPort !== null && workerData !== null && typeof workerData === 'object' && 'eventFile' in workerData) {
  const port = parentPort;
  run(
    workerData as AuditThreadSettings,
    (message) => port.postMessage(message),
    (handler) => port.on('message', handler),
  );
}
