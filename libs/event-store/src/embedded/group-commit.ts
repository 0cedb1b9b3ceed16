import { deferredWork } from '../deferred-work';
/** What happened to one request of a committed batch. */
export type BatchOutcome<Result> = { ok: true; value: Result } | { ok: false; error: unknown };

/**
 * Commits a whole batch in one transaction and reports one outcome per request, in
 * order. Throwing (or rejecting) means the transaction as a whole failed: every request
 * fails. It may answer later (a writer on another thread): until it does, no other batch
 * starts, and new requests gather into the next one.
 */
export type CommitBatch<Request, Result> = (requests: Request[]) => BatchOutcome<Result>[] | Promise<BatchOutcome<Result>[]>;

export interface GroupCommitStats {
  /** Write transactions run (each commits up to maxBatch requests). */
  transactions: number;
  /** Requests that went through a transaction, whatever their outcome. */
  appends: number;
}

/** One committed transaction, as the metrics see it. */
export interface CommitObservation {
  /** Requests the transaction carried (group commit's batch size). */
  appends: number;
  /** For each request, seconds from submit to its transaction's end: the latency its caller saw. */
  appendSeconds: number[];
}

export type CommitObserver = (commit: CommitObservation) => void;

interface Waiting<Request, Result> {
  request: Request;
  submittedAt: number;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * Group commit: requests submitted in the same event-loop turn, or while a batch is
 * being committed, are committed together by one transaction, so one fsync pays for
 * many appends. A request's promise settles only after its batch's commit returned.
 * Flushes on setImmediate, one batch at a time, at most `maxBatch` requests per transaction.
 */
export class GroupCommit<Request, Result> {
  private readonly queue: Waiting<Request, Result>[] = [];
  private flushScheduled = false;
  private committing = false;
  private drainWaiters: (() => void)[] = [];
  private transactions = 0;
  private appends = 0;
  private readonly observers = new Set<CommitObserver>();

  constructor(
    private readonly commitBatch: CommitBatch<Request, Result>,
    private readonly maxBatch: number,
  ) {}

  submit(request: Request): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ request, submittedAt: performance.now(), resolve, reject });
      this.scheduleFlush();
    });
  }

  /** Resolves once every submitted request has settled. */
  drain(): Promise<void> {
    if (this.queue.length === 0 && !this.flushScheduled && !this.committing) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  stats(): GroupCommitStats {
    return { transactions: this.transactions, appends: this.appends };
  }

  /**
   * Calls `observer` after each transaction, on the turn after its callers were answered
   * (an observer registered when a transaction ends is told of it even if it unsubscribes
   * meanwhile); returns the unsubscribe. An observer that throws is ignored.
   */
  observeCommits(observer: CommitObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.committing) return;
    this.flushScheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    this.committing = true;
    const batch = this.queue.splice(0, this.maxBatch);
    let outcomes: BatchOutcome<Result>[];
    try {
      outcomes = await this.commitBatch(batch.map((waiting) => waiting.request));
    } catch (error) {
      outcomes = batch.map(() => ({ ok: false, error }));
    }
    this.committing = false;
    this.transactions += 1;
    this.appends += batch.length;
    batch.forEach((waiting, index) => {
      const outcome = outcomes[index];
      if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome.error);
    });
    // The observers registered now are told after the callers' microtasks, while the writer
    // syncs the next commit (deferred-work.ts): what they do (metrics, waking the audit index's
    // thread) is no part of an append's answer, and at one client it was about 20 µs of every
    // command's wait when it ran at once (timed stage by stage on the request path).
    if (this.observers.size > 0) {
      const observers = [...this.observers];
      const committedAt = performance.now();
      deferredWork.defer(() => this.notifyObservers(observers, batch, committedAt));
    }
    if (this.queue.length > 0) {
      this.scheduleFlush();
    } else {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      waiters.forEach((resolve) => resolve());
    }
  }

  private notifyObservers(observers: CommitObserver[], batch: Waiting<Request, Result>[], committedAt: number): void {
    const commit: CommitObservation = { appends: batch.length, appendSeconds: batch.map((waiting) => (committedAt - waiting.submittedAt) / 1000) };
    for (const observer of observers) {
      try {
        observer(commit);
      } catch {
        // Metrics must never fail a commit that already happened.
      }
    }
  }
}
