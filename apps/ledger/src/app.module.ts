import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { LoggerModule } from 'nestjs-pino';
import { TerminusModule } from '@nestjs/terminus';
import type { EventStore } from '@ledger/event-store';
import type { LedgerConfig } from './config/ledger-config';
import { CLOCK, EVENT_STORE, LEDGER_CONFIG, RANDOMNESS } from './infrastructure/injection-tokens';
import { systemClock, type Clock } from './infrastructure/clock';
import { cryptoRandomness, type Randomness } from './infrastructure/randomness';
import { correlationIdFor } from './http/correlation-id';
import { LedgerValidationPipe } from './http/ledger-validation.pipe';
import { LedgerExceptionFilter } from './http/ledger-exception.filter';
import { RefusalRecorder } from './command-side/refusal-recorder';
import { NodeCommandService } from './command-side/node-command.service';
import { AcquireService } from './command-side/acquire.service';
import { LedgerViewService } from './read-side/ledger-view.service';
import { NodesController } from './nodes/nodes.controller';
import { EnlistNodeHandler } from './nodes/enlist-node.handler';
import { ReservationsController } from './reservations/reservations.controller';
import { CancelReservationHandler, ReserveNodeHandler } from './reservations/reservations.handlers';
import { AllocationsController } from './allocations/allocations.controller';
import { AcquireNodeHandler } from './allocations/acquire-node.handler';
import { RunTokenCommandHandler } from './allocations/token-commands.handlers';
import { ReleaseModelHandler } from './allocations/release-model.handler';
import { ObservationsController } from './observations/observations.controller';
import { ObserveNodeHandler } from './observations/observe-node.handler';
import { ReconcileController } from './reconcile/reconcile.controller';
import { HealthController } from './health/health.controller';
import { ReadinessIndicators } from './health/readiness-indicators';
import { StorageHealth } from './health/storage-health.service';
import { KeyRegistry } from './security/key-registry';
import { AccessGuard } from './security/access.guard';
import { ObservePowerHandler } from './observations/observe-power.handler';
import { MaintenanceController } from './maintenance/maintenance.controller';
import { SetMaintenanceHandler } from './maintenance/maintenance.handlers';
import { DeployTimeoutMonitor } from './node-health/deploy-timeout.monitor';
import { LeaseOwnersService } from './command-side/lease-owners.service';
import { LeaseCommandService } from './command-side/lease-command.service';
import { DevicesController } from './devices/devices.controller';
import { RegisterDeviceHandler, RemoveDeviceHandler } from './devices/device-commands.handlers';
import { LeasesController } from './leases/leases.controller';
import { GrantLeaseHandler, ReleaseLeaseHandler, RenewLeaseHandler } from './leases/lease-commands.handlers';
import { LeaseObservationsController } from './observations/lease-observations.controller';
import { ObserveDhcpLeasesHandler } from './observations/observe-dhcp-leases.handler';
import { LeaseCascadeService } from './lease-cascade/lease-cascade.service';
import { MetricsController } from './metrics/metrics.controller';
import { LedgerMetrics } from './metrics/ledger-metrics';
import { LogFollowers } from './read-side/log-followers.service';
import { CommandOutcomeInterceptor } from './metrics/command-outcome.interceptor';
import { ReadModelDatabase } from './read-side/read-model-database';
import { AuditIndexService } from './read-side/audit-index.service';
import { TimeTravelService } from './read-side/time-travel.service';
import { AuditController } from './audit/audit.controller';
import { StateController } from './state/state.controller';
import { ProjectionsAdminController } from './admin/projections.controller';
import { SubscriptionRestarts } from './infrastructure/subscription-restarts';

export interface LedgerModuleOptions {
  config: LedgerConfig;
  store: EventStore;
  clock?: Clock;
  randomness?: Randomness;
}

@Module({})
export class LedgerModule {
  static register({ config, store, clock = systemClock, randomness = cryptoRandomness }: LedgerModuleOptions): DynamicModule {
    return {
      module: LedgerModule,
      imports: [
        CqrsModule.forRoot(),
        TerminusModule.forRoot({ errorLogStyle: 'json' }),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            genReqId: (request, response) => correlationIdFor(request, response),
            customProps: (request) => ({ correlationId: (request as { id?: string }).id }),
            redact: { paths: ['req.headers.authorization', 'req.headers["x-reservation-key"]'], censor: '[redacted]' },
          },
        }),
      ],
      controllers: [NodesController, ReservationsController, AllocationsController, ObservationsController, ReconcileController, HealthController, MaintenanceController, DevicesController, LeasesController, LeaseObservationsController, AuditController, StateController, ProjectionsAdminController, MetricsController],
      providers: [
        { provide: LEDGER_CONFIG, useValue: config },
        { provide: EVENT_STORE, useValue: store },
        { provide: CLOCK, useValue: clock },
        { provide: RANDOMNESS, useValue: randomness },
        { provide: APP_PIPE, useClass: LedgerValidationPipe },
        { provide: APP_FILTER, useClass: LedgerExceptionFilter },
        { provide: APP_GUARD, useClass: AccessGuard },
        KeyRegistry,
        { provide: APP_INTERCEPTOR, useClass: CommandOutcomeInterceptor },
        LedgerMetrics,
        LogFollowers,
        ReadinessIndicators,
        StorageHealth,
        SubscriptionRestarts,
        RefusalRecorder,
        NodeCommandService,
        AcquireService,
        LedgerViewService,
        ReadModelDatabase,
        AuditIndexService,
        TimeTravelService,
        EnlistNodeHandler,
        ReserveNodeHandler,
        CancelReservationHandler,
        AcquireNodeHandler,
        RunTokenCommandHandler,
        ReleaseModelHandler,
        ObserveNodeHandler,
        ObservePowerHandler,
        SetMaintenanceHandler,
        DeployTimeoutMonitor,
        LeaseOwnersService,
        LeaseCommandService,
        RegisterDeviceHandler,
        RemoveDeviceHandler,
        GrantLeaseHandler,
        RenewLeaseHandler,
        ReleaseLeaseHandler,
        ObserveDhcpLeasesHandler,
        LeaseCascadeService,
      ],
    };
  }
}
