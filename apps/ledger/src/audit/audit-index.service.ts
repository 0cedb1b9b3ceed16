import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import {
  AuditIndexedLog,
  AuditIndexPoints,
  AuditIndexProjector,
  AuditIndexReader,
  AuditIndexThread,
  ProjectorRunner,
  readModelFile,
  type RebuildProgress,
  type RebuildResult,
  type ThreadPriority,
} from '@ledger/projections';
import { eventStoreFile, groupCommitting, type EventStore } from '@ledger/event-store';
import { EVENT_STORE, LEDGER_CONFIG } from '../infrastructure/injection-tokens';
import type { LedgerConfig } from '../config/ledger-config';
import { ReadModelDatabase } from '../infrastructure/read-model-database';
import { NotCaughtUp } from '../application/not-caught-up';
import { StorageHealth } from '../infrastructure/storage-health.service';
import { SubscriptionRestarts } from '../infrastructure/subscription-restarts';
import { LogFollowers } from '../infrastructure/log-followers';
import { ExpectedUnavailabilityLog } from '../infrastructure/expected-unavailability';

/**
 * The index folds new events at most this often: a fold is one transaction, about as dear for
 * one event as for a hundred, and every audit answer hurries it to what it must reflect, so
 * the interval only batches background work. 100 against 20 ms: 13.8 against 32.8 KB written
 * a command at 64 clients, less CPU a command in 7 of 8 alternated pairs
 * (the alternated http-fold100 and http-fold20 runs of 2026-12-02 in bench/results).
 */
const AUDIT_FOLD_INTERVAL_MS = 100;

/**
 * How many nice steps below the rest of the process the index's thread runs (Linux), so the
 * cores go to request handling and the store's writer first; the index catches up in larger
 * pages. 0.49 of the baseline's 64-client rate at nice 10 and 19 against 0.43-0.49 at 0, no
 * difference at 1 client (bench/results/2026-12-01-audit-thread-nice-ab.md).
 */
const AUDIT_THREAD_NICE = 10;

/** What keeps the index up to date: a runner on this thread, or the index's own thread. */
type AuditFold = Pick<AuditIndexThread, 'position' | 'rebuilding' | 'waitFor' | 'stop'> & { rebuild(): Promise<RebuildResult> };

/**
 * The audit index (one row per event, in the read-model file), followed from the log.
 * It catches up in the background: on a big log the API answers before it is done,
 * and audit queries say which position they reflect (or wait for `minPosition`).
 * On the embedded store it folds on a thread of its own: its page transactions never hold up
 * a request, and the main thread spends less CPU a request (433 against 485 µs at 64 clients,
 * bench/results/2026-12-01-audit-thread-ab.md). On EventStoreDB (no file to share) it folds
 * here. Queries read it on this thread either way.
 */
@Injectable()
export class AuditIndexService implements OnModuleInit, BeforeApplicationShutdown {
  private fold: AuditFold | null = null;
  private unobserve: (() => void) | null = null;
  readonly reader: AuditIndexReader;
  /** The log as audit and time-travel queries read it: positions by time and events by position found through the index. */
  readonly log: EventStore;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly logger: PinoLogger,
    private readonly storage: StorageHealth,
    private readonly readModels: ReadModelDatabase,
    private readonly restarts: SubscriptionRestarts,
    followers: LogFollowers,
    private readonly unavailability: ExpectedUnavailabilityLog,
  ) {
    this.logger.setContext(AuditIndexService.name);
    this.log = new AuditIndexedLog(store, new AuditIndexPoints(readModels.db, store));
    this.reader = new AuditIndexReader(readModels.db, this.log);
    followers.register('audit-index', () => this.position);
  }

  async onModuleInit(): Promise<void> {
    const onError = (error: unknown) => this.storage.report(error, 'read-models') ?? this.logger.error({ err: error }, 'audit index failed; retrying');
    if (this.config.store === 'embedded') {
      const thread = await AuditIndexThread.start(
        {
          eventFile: eventStoreFile(this.config),
          readModelFile: readModelFile(this.config),
          minPageIntervalMs: AUDIT_FOLD_INTERVAL_MS,
          // Commits of this process are told to it (below); other processes' it finds by looking, as subscriptions here do.
          pollIntervalMs: this.config.sqlitePollMs,
          nice: AUDIT_THREAD_NICE,
        },
        {
          onError,
          onRestart: this.restarts.record,
          onExit: (error) => this.logger.error({ err: error }, 'the audit index thread stopped: the index no longer follows the log; restart the ledger'),
        },
      );
      this.fold = thread;
      this.sayPriority(thread.priority);
      this.unobserve = groupCommitting(this.store)?.observeCommits(() => thread.poke()) ?? null;
      return;
    }
    const runner = new ProjectorRunner(this.store, AuditIndexProjector.live(this.readModels.db), {
      onError,
      onRestart: this.restarts.record,
      // One transaction per page costs about the same for one event as for a hundred: under a
      // trickle of commits, fold them together. Queries with minPosition hurry it.
      minPageIntervalMs: AUDIT_FOLD_INTERVAL_MS,
    });
    runner.start();
    const db = this.readModels.db;
    this.fold = {
      get position() {
        return runner.position;
      },
      get rebuilding() {
        return runner.rebuilding;
      },
      waitFor: (position, timeoutMs) => runner.waitFor(position, timeoutMs),
      stop: () => runner.stop(),
      rebuild: () => runner.rebuild(AuditIndexProjector.rebuildOn(db)),
    };
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.unobserve?.();
    await this.fold?.stop();
  }

  get position(): number {
    return this.fold?.position ?? 0;
  }

  /**
   * Resolves once the index reflects `minPosition` and every command this process has
   * answered (refusals included), so an audit answer never stands before what its caller was
   * told; 503 if it does not within LEDGER_READ_WAIT_MS. Free when the index is there already;
   * otherwise the fold is hurried and the wait ends on the position it reports (no polling).
   */
  async atLeast(minPosition: number | undefined): Promise<void> {
    const target = Math.max(minPosition ?? 0, this.store.announceCommits?.() ?? 0);
    if (target <= this.position) return;
    if (!(await this.fold?.waitFor(target, this.config.readWaitMs))) {
      throw new NotCaughtUp(`the audit index is at position ${this.position}, not yet at ${target}; retry shortly`);
    }
    this.unavailability.ended('not_caught_up', 'reads reflect every answer again within LEDGER_READ_WAIT_MS');
  }

  /**
   * Indexes the log again into a new generation of tables while this one answers; swaps when
   * caught up. Its lines carry the correlation id of the request that asked for it.
   */
  rebuild(correlationId: string): Promise<RebuildResult> {
    const started = this.fold!.rebuild();
    this.logger.info({ correlationId }, 'audit index rebuild started');
    return started.then((result) => {
      this.logger.info({ correlationId, ...result }, 'audit index rebuild done');
      return result;
    });
  }

  get rebuilding(): RebuildProgress | null {
    return this.fold?.rebuilding ?? null;
  }

  /** Said once at start: whether the index thread runs at a lower priority than requests, and if not why. */
  private sayPriority(priority: ThreadPriority | null): void {
    if (priority === null) return;
    if ('unchanged' in priority) this.logger.warn({ reason: priority.unchanged }, 'the audit index thread runs at the priority of requests');
    else this.logger.info(priority, 'the audit index thread yields the cores to requests');
  }
}
