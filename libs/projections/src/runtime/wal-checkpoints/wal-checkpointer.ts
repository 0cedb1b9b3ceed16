import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { fromWireError } from '@ledger/event-store';
import type { FromWalCheckpointThread, ToWalCheckpointThread, WalCheckpointDone, WalCheckpointSettings } from './wal-checkpoint-protocol';

/**
 * How often the thread copies the read-model file's WAL back. At a trickle of commands the
 * WAL grows a few megabytes a second, so its copies come about as often as SQLite's own
 * would (every 1,000 pages of 32 KB); under load the audit index's thread, whose connection
 * keeps that threshold, copies back in between; an idle ledger's ticks find nothing to copy.
 * Every second would sync the read-model file five times as often, beside the log's fsyncs.
 */
export const WAL_CHECKPOINT_INTERVAL_MS = 5_000;

export interface WalCheckpointerOptions {
  intervalMs?: number;
  /** A checkpoint that found new frames, done on the thread. */
  onCheckpoint?: (done: WalCheckpointDone) => void;
  /** A checkpoint that failed (a full disk, ...): the WAL keeps its pages, the next one tries again. */
  onError?: (error: Error) => void;
  /** The thread ended without being asked to: `db` copies the WAL back on its own commits again. */
  onExit?: (error: Error) => void;
}

/**
 * Keeps WAL checkpoints off the thread that owns `db` (the ledger's event loop): while it
 * runs, `db` never copies the WAL back on its commits (`wal_autocheckpoint = 0`), and a
 * thread of its own copies it back every `intervalMs`, through its own connection. Other
 * connections to the file (the audit index's thread, a CLI rebuild) keep SQLite's own
 * threshold: they are not on the event loop. When the thread stops, or dies, `db` takes
 * its threshold back, so the WAL never grows without bound.
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
    const settings: WalCheckpointSettings = { file: db.name, intervalMs: options.intervalMs ?? WAL_CHECKPOINT_INTERVAL_MS };
    const worker = new Worker(join(__dirname, 'wal-checkpoint.worker.js'), { workerData: settings });
    return new Promise((resolve, reject) => {
      let checkpointer: WalCheckpointer | null = null;
      let crash: Error | null = null;
      worker.on('message', (message: FromWalCheckpointThread) => {
        if (message.kind === 'ready') {
          const threshold = Number(db.pragma('wal_autocheckpoint', { simple: true }));
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
