/**
 * The read-model file's WAL copied back into the file on a thread of its own. A WAL
 * checkpoint writes every page committed since the last one into the file and syncs it:
 * tens of megabytes under load, 50-600 ms on a shared disk. SQLite runs one inside the
 * commit that finds the WAL over 1,000 pages, whichever connection that is; on the main
 * thread's connection that stopped the event loop for as long (wal-checkpointer.ts).
 * Here it runs PASSIVE (never waiting for a reader or a writer) once the WAL holds as
 * many pages as SQLite's threshold, looked at every `pollMs`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toWireError } from '@ledger/event-store';
import { openReadModelDatabase } from '../read-model-database';
import { WalPagesPending } from './wal-pages-pending';
import type { FromWalCheckpointThread, ToWalCheckpointThread, WalCheckpointSettings } from './wal-checkpoint-protocol';

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

interface Port {
  tell(message: FromWalCheckpointThread): void;
  listen(handler: (message: ToWalCheckpointThread) => void): void;
  /** Lets the thread end: nothing else keeps it alive. */
  close(): void;
}

const run = (settings: WalCheckpointSettings, { tell, listen, close }: Port) => {
  let db: ReturnType<typeof openReadModelDatabase>;
  try {
    db = openReadModelDatabase(settings.file);
  } catch (error) {
    tell({ kind: 'open-failed', error: toWireError(error) });
    close();
    return;
  }
  const pending = new WalPagesPending(settings.file);
  let timer: NodeJS.Timeout | null = null;
  const look = () => {
    timer = null;
    if (pending.read() >= settings.thresholdPages) {
      try {
        const began = performance.now();
        const [row] = db.pragma('wal_checkpoint(PASSIVE)') as CheckpointRow[];
        tell({ kind: 'checkpointed', ms: performance.now() - began, walFrames: row.log, copiedFrames: row.checkpointed });
      } catch (error) {
        // A full disk, say: the WAL keeps every page; the next look tries again.
        tell({ kind: 'failed', error: toWireError(error) });
      }
    }
    timer = setTimeout(look, settings.pollMs);
  };
  listen((message) => {
    if (message.kind !== 'stop') return;
    if (timer !== null) clearTimeout(timer);
    pending.close();
    db.close();
    tell({ kind: 'stopped' });
    close();
  });
  timer = setTimeout(look, settings.pollMs);
  tell({ kind: 'ready' });
};

if (parentPort !== null && workerData !== null && typeof workerData === 'object' && 'thresholdPages' in workerData) {
  const port = parentPort;
  run(workerData as WalCheckpointSettings, {
    tell: (message) => port.postMessage(message),
    listen: (handler) => port.on('message', handler),
    close: () => port.close(),
  });
}
