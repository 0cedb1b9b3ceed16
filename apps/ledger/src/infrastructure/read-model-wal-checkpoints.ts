import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { Histogram } from 'prom-client';
import { WalCheckpointer } from '@ledger/projections';
import { ReadModelDatabase } from './read-model-database';
import { LEDGER_CONFIG } from './injection-tokens';
import type { LedgerConfig } from '../config/ledger-config';
import { StorageHealth } from './storage-health.service';

/**
 * The read-model file's WAL copied back off the event loop (WalCheckpointer): the main
 * thread's commits (checkpoints, snapshots, the lease cascade) no longer run SQLite's
 * checkpoint of tens of megabytes and its sync, which stopped every request for 50-600 ms
 * whenever one of them found the WAL over its threshold. If the thread cannot start or
 * dies, the connection copies the WAL back itself, as before, and a line says so.
 */
@Injectable()
export class ReadModelWalCheckpoints implements OnModuleInit, BeforeApplicationShutdown {
  /** Registered on /metrics by LedgerMetrics. */
  readonly duration = new Histogram({
    name: 'ledger_read_model_wal_checkpoint_seconds',
    help: 'Copies of the read-model file’s WAL back into the file made by its checkpoint thread (never the event loop) once 1,000 pages gathered, by how long each took.',
    buckets: [0.001, 0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [],
  });
  private checkpointer: WalCheckpointer | null = null;

  constructor(
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly readModels: ReadModelDatabase,
    private readonly storage: StorageHealth,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(ReadModelWalCheckpoints.name);
  }

  async onModuleInit(): Promise<void> {
    try {
      this.checkpointer = await WalCheckpointer.start(this.readModels.db, {
        thresholdPages: this.config.readModelWalCheckpointPages,
        onCheckpoint: (done) => this.duration.observe(done.ms / 1000),
        onError: (error) => this.storage.report(error, 'read-models') ?? this.logger.warn({ err: error }, 'copying the read-model WAL back failed; retrying'),
        onExit: (error) =>
          this.logger.error({ err: error }, 'the read-model WAL checkpoint thread stopped: the event loop copies the WAL back from now on; restart the ledger'),
      });
    } catch (error) {
      this.logger.warn({ err: error }, 'no thread copies the read-model WAL back: the event loop does');
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.checkpointer?.stop();
  }
}
