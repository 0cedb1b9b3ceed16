import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { fromWireError } from '@ledger/event-store';
import type { FromWalCheckpointThread, ToWalCheckpointThread, WalCheckpointDone, WalCheckpointSettings } from './wal-checkpoint-protocol';

/** How often the thread looks at the WAL's size (a read of the wal-index's first 100 bytes). */
export const WAL_POLL_MS = 250;

export interface WalCheckpointerOptions {
  pollMs?: number;
  /** Pages of WAL the thread lets gather before it copies them back; by default the connection's own threshold (SQLite's 1,000). */
  thresholdPages?: number;
  /** A copy back the thread made (the WAL had reached the threshold). */
  onCheckpoint?: (done: WalCheckpointDone) => void;
  /** A checkpoint that failed (a full disk, ...): the WAL keeps its pages, the next one tries again. */
  onError?: (error: Error) => void;
  /** The thread ended without being asked to: `db` copies the WAL back on its own commits again. */
  onExit?: (error: Error) => void;
}

/**
 * Keeps WAL checkpoints off the thread that owns `db` (the ledger's event loop): while it
 * runs, `db` never copies the WAL back on its commits (`wal_autocheckpoint = 0`), and a
 * thread of its own, through its own connection, copies it back once it holds as many
 * pages as `db` would have let it (so no more often than SQLite would). Other connections
 * to the file (the audit index's thread, a CLI rebuild) keep SQLite's own threshold: they
 * are not on the event loop, and under load the audit index's thread, which commits ten
 * times a second, makes most of the copies. When the thread stops, or dies, `db` takes its
 * threshold back, so the WAL never grows without bound.
 */
export class WalCheckpointer {
  private stopping: Promise<void> | null = null;
  private exited = false;

  private constructor(
    private readonly worker: Worker,
    private readonly db: Database.Database,
    private readonly ownThreshold: number,
  ) {}

  static start(db: Database.Database, options: WalCheckpointerOptions = {}): Promise<WalCheckpointer> {
    if (db.memory || db.readonly || String(db.pragma('journal_mode', { simple: true })) !== 'wal') {
      return Promise.reject(new TypeError(`${db.name}: only a file in WAL mode, open for writing, has a WAL to copy back`));
    }
    const threshold = Number(db.pragma('wal_autocheckpoint', { simple: true }));
    const settings: WalCheckpointSettings = {
      file: db.name,
      pollMs: options.pollMs ?? WAL_POLL_MS,
      thresholdPages: options.thresholdPages ?? (threshold || 1_000),
    };
    const worker = new Worker(join(__dirname, 'wal-checkpoint.worker.js'), { workerData: settings });
    return new Promise((resolve, reject) => {
      let checkpointer: WalCheckpointer | null = null;
      let crash: Error | null = null;
      worker.on('message', (message: FromWalCheckpointThread) => {
        if (message.kind === 'ready') {
          db.pragma('wal_autocheckpoint = 0');
          checkpointer = new WalCheckpointer(worker, db, threshold);
          // A thread with nothing pending never keeps the process alive, as a timer of the main thread's would not.
          worker.unref();
          resolve(checkpointer);
        } else if (message.kind === 'open-failed') reject(fromWireError(message.error));
        else if (message.kind === 'checkpointed') options.onCheckpoint?.({ ms: message.ms, walFrames: message.walFrames, copiedFrames: message.copiedFrames });
        else if (message.kind === 'failed') options.onError?.(fromWireError(message.error));
      });
      worker.once('error', (error) => (crash = error));
      worker.once('exit', (code) => {
        if (checkpointer === null) return reject(crash ?? new Error(`the WAL checkpoint thread stopped (exit code ${code}) before it started`));
        checkpointer.exited = true;
        checkpointer.restoreThreshold();
        if (checkpointer.stopping === null) options.onExit?.(crash ?? new Error(`the WAL checkpoint thread stopped (exit code ${code})`));
      });
    });
  }

  /** Ends the thread (after the checkpoint under way, if any); `db` copies the WAL back itself from then on. */
  stop(): Promise<void> {
    this.stopping ??= new Promise<void>((resolve) => {
      if (this.exited) return resolve();
      this.worker.once('exit', () => resolve());
      // The caller waits for the thread to end: until it has, it keeps the process alive.
      this.worker.ref();
      this.worker.postMessage({ kind: 'stop' } satisfies ToWalCheckpointThread);
    });
    return this.stopping;
  }

  private restoreThreshold(): void {
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${this.ownThreshold}`);
  }
}
