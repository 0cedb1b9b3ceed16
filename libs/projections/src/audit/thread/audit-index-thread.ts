import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { fromWireError, type SubscriptionRestart } from '@ledger/event-store';
import { PositionWaiters } from '../../runtime/position-waiters';
import { RebuildInProgressError, type RebuildProgress, type RebuildResult } from '../../runtime/projector-runner';
import type { AuditThreadSettings, FromAuditThread, ToAuditThread } from './audit-thread-protocol';
import type { ThreadPriority } from './background-priority';

export interface AuditIndexThreadOptions {
  /** A page the thread could not write (a full disk, ...): it retries from its checkpoint. */
  onError: (error: Error) => void;
  onRestart: (restart: SubscriptionRestart) => void;
  /** The thread ended without being asked to (a crash): the index stops following the log. */
  onExit: (error: Error) => void;
}

/**
 * The main thread's handle on the live audit index's thread (audit-index-thread.worker):
 * how far it has folded, waiting for a position (read-your-writes), rebuilds. The same
 * surface as a ProjectorRunner, so the service in front of it does not care where the
 * fold runs.
 */
export class AuditIndexThread {
  private readonly waiters = new PositionWaiters();
  private folded = 0;
  private rebuildRun: { progress: RebuildProgress; resolve: (result: RebuildResult) => void; reject: (error: Error) => void } | null = null;
  private stopping: Promise<void> | null = null;
  private exited = false;
  /** When the last poke was sent (performance.now()), and the one waiting to be sent after it, if any. */
  private lastPokeAt = -Infinity;
  private pokeTimer: NodeJS.Timeout | null = null;
  /** The nice value the thread took (settings.nice), or why it could not; null when none was asked for. */
  priority: ThreadPriority | null = null;

  private constructor(
    private readonly worker: Worker,
    private readonly options: AuditIndexThreadOptions,
    /** The thread folds at most this often; pokes closer together than this would only wake it for nothing. */
    private readonly minPokeIntervalMs: number,
  ) {}

  /** Starts the thread; resolves once it follows the log (its position known), rejects if it cannot open the files. */
  static start(settings: AuditThreadSettings, options: AuditIndexThreadOptions): Promise<AuditIndexThread> {
    const worker = new Worker(join(__dirname, 'audit-index-thread.worker.js'), { workerData: settings });
    const thread = new AuditIndexThread(worker, options, settings.minPageIntervalMs);
    return new Promise((resolve, reject) => {
      let started = false;
      worker.on('message', (message: FromAuditThread) => {
        if (message.kind === 'ready') {
          started = true;
          thread.priority = message.priority;
          thread.advance(message.position);
          resolve(thread);
        } else if (message.kind === 'open-failed') {
          reject(fromWireError(message.error));
          void worker.terminate();
        } else thread.receive(message);
      });
      // A thread that throws emits 'error' and then 'exit': the crash is told once, at the exit, with its error.
      let crash: Error | null = null;
      worker.once('error', (error) => (started ? (crash = error) : reject(error)));
      worker.once('exit', (code) => {
        thread.exited = true;
        if (!started) reject(new Error(`the audit index's thread stopped (exit code ${code}) before it started`));
        else if (thread.stopping === null) thread.ended(crash ?? new Error(`the audit index's thread stopped (exit code ${code})`));
      });
    });
  }

  get position(): number {
    return this.folded;
  }

  get rebuilding(): RebuildProgress | null {
    return this.rebuildRun ? { ...this.rebuildRun.progress } : null;
  }

  /**
   * The ledger committed: the thread reads now instead of at its next poll. Every commit is
   * followed by a poke sent after it, but at most one per fold interval (waking a thread
   * costs the main thread about 100 µs; it would fold no sooner): a commit inside the
   * interval is told with the poke that ends it. Never fewer than that: a poke answered by
   * nothing new (the thread had already read that commit) must not hold back the next.
   */
  poke(): void {
    if (this.stopping !== null || this.pokeTimer !== null) return;
    const wait = this.lastPokeAt + this.minPokeIntervalMs - performance.now();
    if (wait <= 0) this.sendPoke();
    else this.pokeTimer = setTimeout(() => this.sendPoke(), wait);
  }

  /** Resolves true once the thread has folded `position`, false after `timeoutMs`. */
  waitFor(position: number, timeoutMs: number): Promise<boolean> {
    if (position > this.folded && this.stopping === null) this.send({ kind: 'hurry', position, timeoutMs });
    return this.waiters.wait(position, this.folded, timeoutMs);
  }

  /** Indexes the log again into a new generation beside the live one, swapped in once caught up. One at a time. */
  rebuild(): Promise<RebuildResult> {
    if (this.rebuildRun) throw new RebuildInProgressError('the audit index is already being rebuilt');
    return new Promise((resolve, reject) => {
      this.rebuildRun = { progress: { startedAt: new Date(), position: 0, events: 0 }, resolve, reject };
      this.send({ kind: 'rebuild' });
    });
  }

  /** Stops following the log: the thread writes its checkpoint, closes its files and ends. */
  stop(): Promise<void> {
    if (this.pokeTimer !== null) clearTimeout(this.pokeTimer);
    this.pokeTimer = null;
    this.stopping ??= new Promise<void>((resolve) => {
      if (this.exited) return resolve();
      this.worker.once('exit', () => resolve());
      this.send({ kind: 'stop' });
    }).finally(() => {
      this.waiters.releaseAll();
      this.rebuildRun?.reject(new Error('audit index rebuild abandoned: the ledger is stopping'));
      this.rebuildRun = null;
    });
    return this.stopping;
  }

  private sendPoke(): void {
    this.pokeTimer = null;
    if (this.stopping !== null) return;
    this.lastPokeAt = performance.now();
    this.send({ kind: 'poke' });
  }

  private receive(message: FromAuditThread): void {
    if (message.kind === 'advanced') this.advance(message.position);
    else if (message.kind === 'error') this.options.onError(fromWireError(message.error));
    else if (message.kind === 'restart') {
      const { error, ...restart } = message.restart;
      this.options.onRestart({ ...restart, ...(error === undefined ? {} : { error: fromWireError(error) }) });
    } else if (message.kind === 'rebuild-progress' && this.rebuildRun) {
      this.rebuildRun.progress = { startedAt: new Date(message.progress.startedAt), position: message.progress.position, events: message.progress.events };
    } else if (message.kind === 'stopped') {
      // Its files are closed; only the port keeps the thread alive.
      void this.worker.terminate();
    } else if (message.kind === 'rebuild-done' || message.kind === 'rebuild-failed') {
      const run = this.rebuildRun;
      this.rebuildRun = null;
      if (message.kind === 'rebuild-done') run?.resolve(message.result);
      else run?.reject(fromWireError(message.error));
    }
  }

  private advance(position: number): void {
    this.folded = position;
    this.waiters.reached(position);
  }

  private ended(error: Error): void {
    this.waiters.releaseAll();
    this.rebuildRun?.reject(error);
    this.rebuildRun = null;
    this.options.onExit(error);
  }

  private send(message: ToAuditThread): void {
    this.worker.postMessage(message);
  }
}
