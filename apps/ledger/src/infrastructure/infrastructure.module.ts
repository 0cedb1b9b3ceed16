import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { deferredWork, UpcastingEventStore, type EventStore } from '@ledger/event-store';
import { LEDGER_UPCASTERS } from '@ledger/projections';
import type { LedgerConfig } from '../config/ledger-config';
import { CLOCK, EVENT_STORE, LEDGER_CONFIG, RANDOMNESS } from './injection-tokens';
import { systemClock, type Clock } from './clock';
import { cryptoRandomness, type Randomness } from './randomness';
import { openEventStore } from './event-store.factory';
import { ReadModelDatabase } from './read-model-database';
import { StorageHealth } from './storage-health.service';
import { SubscriptionRestarts } from './subscription-restarts';
import { ReadModelWriteDeferrals } from './read-model-write-deferrals';
import { ReadModelWalCheckpoints } from './read-model-wal-checkpoints';
import { LogFollowers } from './log-followers';
import { ExpectedUnavailabilityLog } from './expected-unavailability';
import { WallClockSteps } from './wall-clock-steps';
import { DataDirectoryPermissions } from './data-directory-permissions';

export interface InfrastructureOptions {
  config: LedgerConfig;
  clock?: Clock;
  randomness?: Randomness;
}

/**
 * Closes the event store when the application shuts down (Nest's shutdown hooks, on
 * SIGTERM/SIGINT). Everything that reads or writes the store stops in
 * `beforeApplicationShutdown`, which runs for every module first.
 */
@Injectable()
export class EventStoreLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext('Bootstrap');
  }

  async onApplicationShutdown(signal?: string): Promise<void> {
    // The HTTP server is closed by now: the last answers' log lines and metrics go out first.
    deferredWork.runNow();
    this.logger.info({ signal }, 'ledger stopping: closing the event store');
    await this.store.close();
  }
}

/**
 * The one owner of the ledger's connections: configuration, the event store, the
 * read-model database, the clock and randomness. Global, because every feature needs
 * them and none may open its own.
 */
@Global()
@Module({})
export class InfrastructureModule {
  static register({ config, clock = systemClock, randomness = cryptoRandomness }: InfrastructureOptions): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: LEDGER_CONFIG, useValue: config },
        { provide: CLOCK, useValue: clock },
        { provide: RANDOMNESS, useValue: randomness },
        // Everything the ledger loads from the log comes through the one upcaster registry, in its current shape.
        { provide: EVENT_STORE, useFactory: async () => new UpcastingEventStore(await openEventStore(config, clock), LEDGER_UPCASTERS) },
        EventStoreLifecycle,
        ReadModelDatabase,
        StorageHealth,
        SubscriptionRestarts,
        ReadModelWriteDeferrals,
        ReadModelWalCheckpoints,
        LogFollowers,
        ExpectedUnavailabilityLog,
        WallClockSteps,
        DataDirectoryPermissions,
      ],
      exports: [
        LEDGER_CONFIG,
        CLOCK,
        RANDOMNESS,
        EVENT_STORE,
        ReadModelDatabase,
        StorageHealth,
        SubscriptionRestarts,
        ReadModelWriteDeferrals,
        ReadModelWalCheckpoints,
        LogFollowers,
        ExpectedUnavailabilityLog,
        WallClockSteps,
      ],
    };
  }
}
