import { BadRequestException, Inject, Injectable, OnApplicationShutdown, OnModuleInit, ServiceUnavailableException } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { CheckpointStore, ledgerProjection, ProjectionRunner, type LedgerViewState } from '@ledger/projections';
import type { EventStore } from '@ledger/event-store';
import { CLOCK, EVENT_STORE, LEDGER_CONFIG } from '../infrastructure/injection-tokens';
import type { LedgerConfig } from '../config/ledger-config';
import { readModelFile } from '../infrastructure/event-store.factory';
import type { Clock } from '../infrastructure/clock';

/** The live read models, followed from the log, and read-your-writes waiting. */
@Injectable()
export class LedgerViewService implements OnModuleInit, OnApplicationShutdown {
  private readonly checkpoints: CheckpointStore;
  private readonly runner: ProjectionRunner<LedgerViewState>;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Inject(CLOCK) clock: Clock,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(LedgerViewService.name);
    this.checkpoints = CheckpointStore.open(readModelFile(config));
    this.runner = new ProjectionRunner(store, this.checkpoints, ledgerProjection, {
      clock,
      checkpointEveryMs: config.checkpointIntervalMs,
      onError: (error) => this.logger.error({ err: error }, 'ledger view projection stopped'),
    });
  }

  async onModuleInit(): Promise<void> {
    this.runner.start();
    const caughtUp = await this.runner.catchUp();
    this.logger.info({ position: this.runner.position, caughtUp }, 'read models caught up');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runner.stop();
    this.checkpoints.close();
  }

  get view(): LedgerViewState {
    return this.runner.state;
  }

  /**
   * The view once it reflects `minPosition` (a position a command returned); 503 if it does
   * not in time. A position past the store's head was never returned by any command: 400
   * at once, rather than holding the request for the whole wait and then answering 5xx.
   */
  async atLeast(minPosition: number | undefined): Promise<LedgerViewState> {
    if (minPosition !== undefined && minPosition > this.runner.position && minPosition > (await this.store.headPosition())) {
      throw new BadRequestException({ code: 'invalid_request', message: `minPosition ${minPosition} is past the newest event in the log` });
    }
    if (minPosition !== undefined && !(await this.runner.waitFor(minPosition, this.config.readWaitMs))) {
      throw new ServiceUnavailableException({
        code: 'not_caught_up',
        message: `read models are at position ${this.runner.position}, not yet at ${minPosition}; retry shortly`,
      });
    }
    return this.runner.state;
  }
}
