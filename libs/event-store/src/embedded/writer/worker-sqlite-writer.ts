import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AppendRequest } from '../append-request';
import type { WrittenBatch } from '../sqlite-batch-writer';
import type { SqliteWriter } from './sqlite-writer';
import { deferredWork } from '../../deferred-work';
import { type FromWriter, type ToWriter, type WriterSettings, fromWireBatch, fromWireError } from './writer-protocol';

interface Pending {
  resolve(batch: WrittenBatch): void;
  reject(error: unknown): void;
}

/**
 * The write connection on its own worker thread (sqlite-writer.worker.ts). Group commit
 * sends one batch and waits for its answer, so at most one commit is pending. If the
 * thread dies, the pending batch and every later one fail with the reason.
 *
 * The thread keeps the process alive only while a commit is pending (as an in-thread
 * store's pending work would): an idle store, even one never closed, lets it exit.
 */
export class WorkerSqliteWriter implements SqliteWriter {
  private pending: Pending | undefined;
  private closed: (() => void) | undefined;
  private broken: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.unref();
    worker.on('message', (message: FromWriter) => this.receive(message));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => {
      if (!this.closed) this.fail(new Error(`the SQLite writer thread exited (code ${code})`));
      this.closed?.();
    });
  }

  static open(settings: WriterSettings): Promise<WorkerSqliteWriter> {
    const worker = new Worker(join(__dirname, 'sqlite-writer.worker.js'), { workerData: settings });
    return new Promise((resolve, reject) => {
      const onFirst = (message: FromWriter) => {
        worker.off('error', reject);
        if (message.kind === 'ready') resolve(new WorkerSqliteWriter(worker));
        else {
          reject(message.kind === 'open-failed' ? fromWireError(message.error) : new Error(`unexpected first message from the writer: ${message.kind}`));
          void worker.terminate();
        }
      };
      worker.once('message', onFirst);
      worker.once('error', reject);
    });
  }

  commit(requests: AppendRequest[], clockTime: string): Promise<WrittenBatch> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.pending) return Promise.reject(new Error('WorkerSqliteWriter: a commit is already pending'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.ref();
      this.worker.postMessage({ kind: 'commit', requests, clockTime } satisfies ToWriter);
      // The main thread only waits for the sync now: the time for what the last answers left.
      deferredWork.handedOff();
    });
  }

  close(): Promise<void> {
    if (this.broken) return this.worker.terminate().then(() => undefined);
    return new Promise((resolve) => {
      this.closed = resolve;
      this.worker.ref();
      this.worker.postMessage({ kind: 'close' } satisfies ToWriter);
    });
  }

  private receive(message: FromWriter): void {
    if (message.kind === 'committed' || message.kind === 'failed') {
      const pending = this.pending;
      this.pending = undefined;
      if (!this.closed) this.worker.unref();
      if (message.kind === 'committed') pending?.resolve(fromWireBatch(message));
      else pending?.reject(fromWireError(message.error));
    }
  }

  private fail(error: Error): void {
    this.broken ??= error;
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }
}
