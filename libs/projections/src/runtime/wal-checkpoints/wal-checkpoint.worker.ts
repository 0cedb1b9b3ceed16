/**
 * The read-model file's WAL copied back into the file on a thread of its own. A WAL
 * checkpoint writes every page committed since the last one into the file and syncs it:
 * tens of megabytes under load, 50-600 ms on a shared disk. SQLite runs one inside the
 * commit that finds the WAL over 1,000 pages, whichever connection that is; on the main
 * thread's connection that stopped the event loop for as long (wal-checkpointer.ts).
 * Here it runs PASSIVE (never waiting for a reader or a writer) on a timer instead.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toWireError } from '@ledger/event-store';
import { openReadModelDatabase } from '../read-model-database';
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
  let last: CheckpointRow = { busy: 0, log: 0, checkpointed: 0 };
  let timer: NodeJS.Timeout | null = null;
  const checkpoint = () => {
    timer = null;
    try {
      const began = performance.now();
      const [row] = db.pragma('wal_checkpoint(PASSIVE)') as CheckpointRow[];
      // Told only when the WAL moved: an idle ledger's checkpoints copy nothing and say nothing.
      if (row.log !== last.log || row.checkpointed !== last.checkpointed) {
        tell({ kind: 'checkpointed', ms: performance.now() - began, walFrames: row.log, copiedFrames: row.checkpointed });
      }
      last = row;
    } catch (error) {
      // A full disk, another process's checkpoint under way: the WAL keeps every page; the next tick tries again.
      tell({ kind: 'failed', error: toWireError(error) });
    }
    timer = setTimeout(checkpoint, settings.intervalMs);
  };
  listen((message) => {
    if (message.kind !== 'stop') return;
    if (timer !== null) clearTimeout(timer);
    db.close();
    tell({ kind: 'stopped' });
    close();
  });
  timer = setTimeout(checkpoint, settings.intervalMs);
  tell({ kind: 'ready' });
};

if (parentPort !== null && workerData !== null && typeof workerData === 'object' && 'intervalMs' in workerData) {
  const port = parentPort;
  run(workerData as WalCheckpointSettings, {
    tell: (message) => port.postMessage(message),
    listen: (handler) => port.on('message', handler),
    close: () => port.close(),
  });
}
