import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { AuditIndexProjector, AuditIndexReader, ProjectorRunner, type RebuildProgress, type RebuildResult } from '@ledger/projections';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE, LEDGER_CONFIG } from '../infrastructure/injection-tokens';
import type { LedgerConfig } from '../config/ledger-config';
import { ReadModelDatabase } from '../infrastructure/read-model-database';
import { NotCaughtUp } from '../application/not-caught-up';
import { StorageHealth } from '../infrastructure/storage-health.service';
import { SubscriptionRestarts } from '../infrastructure/subscription-restarts';
import { LogFollowers } from '../infrastructure/log-followers';

/**
 * The audit index (one row per event, in the read-model file), followed from the log.
 * It catches up in the background: on a big log the API answers before it is done,
 * and audit queries say which position they reflect (or wait for `minPosition`).
 */
@Injectable()
export class AuditIndexService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly runner: ProjectorRunner<AuditIndexProjector>;
  readonly reader: AuditIndexReader;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly logger: PinoLogger,
    private readonly storage: StorageHealth,
    private readonly readModels: ReadModelDatabase,
    restarts: SubscriptionRestarts,
    followers: LogFollowers,
  ) {
    this.logger.setContext(AuditIndexService.name);
    this.runner = new ProjectorRunner(store, AuditIndexProjector.live(readModels.db), {
      onError: (error) => this.storage.report(error, 'read-models') ?? this.logger.error({ err: error }, 'audit index failed; retrying'),
      onRestart: restarts.record,
      // One transaction per page costs about the same for one event as for a hundred: under a
      // trickle of commits, fold them together. Queries with minPosition hurry it.
      minPageIntervalMs: config.auditFoldIntervalMs,
    });
    this.reader = new AuditIndexReader(readModels.db);
    followers.register('audit-index', () => this.runner.position);
  }

  onModuleInit(): void {
    this.runner.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }

  get position(): number {
    return this.runner.position;
  }

  /** Resolves once the index reflects `minPosition`; 503 if it does not in time. */
  async atLeast(minPosition: number | undefined): Promise<void> {
    if (minPosition !== undefined && !(await this.runner.waitFor(minPosition, this.config.readWaitMs))) {
      throw new NotCaughtUp(`the audit index is at position ${this.runner.position}, not yet at ${minPosition}; retry shortly`);
    }
  }

  /**
   * Indexes the log again into a new generation of tables while this one answers; swaps when
   * caught up. Its lines carry the correlation id of the request that asked for it.
   */
  rebuild(correlationId: string): Promise<RebuildResult> {
    const started = this.runner.rebuild({ fresh: () => AuditIndexProjector.fresh(this.readModels.db), promote: (fresh) => fresh.promote() });
    this.logger.info({ correlationId }, 'audit index rebuild started');
    return started.then((result) => {
      this.logger.info({ correlationId, ...result }, 'audit index rebuild done');
      return result;
    });
  }

  get rebuilding(): RebuildProgress | null {
    return this.runner.rebuilding;
  }
}
