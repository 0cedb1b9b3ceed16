import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import {
  CheckpointStore,
  ledgerProjection,
  ProjectionRunner,
  SnapshotReader,
  type LedgerViewState,
  type RebuildProgress,
  type RebuildResult,
} from '@ledger/projections';
import type { EventStore } from '@ledger/event-store';
import { CLOCK, EVENT_STORE, LEDGER_CONFIG } from '../infrastructure/injection-tokens';
import type { LedgerConfig } from '../config/ledger-config';
import type { Clock } from '../infrastructure/clock';
import { ReadModelDatabase } from '../infrastructure/read-model-database';
import { InvalidInput } from '../application/invalid-input';
import { NotCaughtUp } from '../application/not-caught-up';
import { StorageHealth } from '../infrastructure/storage-health.service';
import { SubscriptionRestarts } from '../infrastructure/subscription-restarts';
import { ReadModelWriteDeferrals } from '../infrastructure/read-model-write-deferrals';
import { LogFollowers } from '../infrastructure/log-followers';
import { ExpectedUnavailabilityLog } from '../infrastructure/expected-unavailability';

/** The live read models, followed from the log, and read-your-writes waiting. */
@Injectable()
export class LedgerViewService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly runner: ProjectionRunner<LedgerViewState>;
  readonly snapshots: SnapshotReader;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Inject(CLOCK) clock: Clock,
    private readonly logger: PinoLogger,
    private readonly storage: StorageHealth,
    readModels: ReadModelDatabase,
    restarts: SubscriptionRestarts,
    deferrals: ReadModelWriteDeferrals,
    followers: LogFollowers,
    private readonly unavailability: ExpectedUnavailabilityLog,
  ) {
    this.logger.setContext(LedgerViewService.name);
    this.runner = new ProjectionRunner(store, CheckpointStore.on(readModels.db), ledgerProjection, {
      clock,
      checkpointEveryMs: config.checkpointIntervalMs,
      snapshotEvery: config.snapshotEvery,
      onError: (error) => this.storage.report(error, 'read-models') ?? this.logger.error({ err: error }, 'ledger view projection failed; retrying'),
      onRestart: restarts.record,
      onCheckpointDeferred: deferrals.of(`${ledgerProjection.name}/checkpoint`),
      onSnapshotDeferred: deferrals.of(`${ledgerProjection.name}/snapshot`),
    });
    this.snapshots = new SnapshotReader(readModels.db, ledgerProjection.name);
    followers.register('ledger-view', () => this.runner.position);
  }

  async onModuleInit(): Promise<void> {
    this.runner.start();
    const caughtUp = await this.runner.catchUp();
    // A long catch-up is not redone after a crash, and tools (verify) find the view on disk at once.
    this.runner.checkpoint();
    this.logger.info({ position: this.runner.position, caughtUp }, 'read models caught up');
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner.stop();
  }

  /** The view as folded now: it may not have the newest commits yet (current() waits for them). */
  get view(): LedgerViewState {
    return this.runner.state;
  }

  /**
   * The view once it reflects `minPosition` (a position a command returned); 503 if it does
   * not in time. A position past the store's head was never returned by any command: 400
   * at once, rather than holding the request for the whole wait and then answering 5xx.
   * Without `minPosition`: current().
   */
  async atLeast(minPosition: number | undefined): Promise<LedgerViewState> {
    if (minPosition === undefined) return this.current();
    if (minPosition > this.runner.position && minPosition > (await this.store.headPosition())) {
      throw new InvalidInput(`minPosition ${minPosition} is past the newest event in the log`);
    }
    if (!(await this.runner.waitFor(minPosition, this.config.readWaitMs))) {
      throw new NotCaughtUp(`read models are at position ${this.runner.position}, not yet at ${minPosition}; retry shortly`);
    }
    this.unavailability.ended('not_caught_up', 'reads reflect every answer again within LEDGER_READ_WAIT_MS');
    return this.runner.state;
  }

  /**
   * The view past every command this process has answered (what a query, or an acquire
   * choosing a node, reads): the store tells the view of a commit while the writer syncs the
   * next one, so a read may come first and then waits for that fold, microseconds on a
   * healthy ledger. A fold that does not come within LEDGER_READ_WAIT_MS (read models
   * failing) is not waited for longer: the view answers as it stands, as it did before.
   */
  async current(): Promise<LedgerViewState> {
    const answered = this.store.announceCommits?.() ?? 0;
    if (answered > this.runner.position) await this.runner.waitFor(answered, this.config.readWaitMs);
    return this.runner.state;
  }

  /**
   * Folds a new view (and new snapshots) from position 0 while this one keeps answering; swaps
   * when caught up. Its lines carry the correlation id of the request that asked for it.
   */
  rebuild(correlationId: string): Promise<RebuildResult> {
    const started = this.runner.rebuildFromZero();
    this.logger.info({ correlationId, projection: ledgerProjection.name }, 'rebuild started');
    return started.then((result) => {
      this.logger.info({ correlationId, projection: ledgerProjection.name, ...result }, 'rebuild done: the new view answers from now on');
      return result;
    });
  }

  get rebuilding(): RebuildProgress | null {
    return this.runner.rebuilding;
  }

  get position(): number {
    return this.runner.position;
  }
}
