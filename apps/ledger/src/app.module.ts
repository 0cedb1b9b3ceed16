import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { LoggerModule } from 'nestjs-pino';
import type { EventStore } from '@ledger/event-store';
import type { LedgerConfig } from './config/ledger-config';
import { CLOCK, EVENT_STORE, LEDGER_CONFIG, RANDOMNESS } from './infrastructure/injection-tokens';
import { systemClock, type Clock } from './infrastructure/clock';
import { cryptoRandomness, type Randomness } from './infrastructure/randomness';
import { correlationIdFor } from './http/correlation-id';
import { LedgerValidationPipe } from './http/ledger-validation.pipe';
import { LedgerExceptionFilter } from './http/ledger-exception.filter';
import { RefusalRecorder } from './application/refusal-recorder';
import { NodeCommandService } from './application/node-command.service';
import { AcquireService } from './allocations/acquire-node/acquire.service';
import { LedgerViewService } from './read-models/ledger-view.service';
import { NodesController } from './nodes/nodes.controller';
import { EnlistNodeHandler } from './nodes/enlist-node/enlist-node.handler';
import { ReservationsController } from './allocations/reservations/reservations.controller';
import { CancelReservationHandler, ReserveNodeHandler } from './allocations/reservations/reservations.handlers';
import { AllocationsController } from './allocations/allocations.controller';
import { AcquireNodeHandler } from './allocations/acquire-node/acquire-node.handler';
import { RunTokenCommandHandler } from './allocations/allocation-lifecycle/token-commands.handlers';
import { ReleaseModelHandler } from './allocations/release-model/release-model.handler';
import { ObservationsController } from './observations/observations.controller';
import { ObserveNodeHandler } from './observations/observe-node/observe-node.handler';
import { ReconcileController } from './observations/reconcile/reconcile.controller';
import { HealthController } from './metrics/health.controller';
import { KeyRegistry } from './access/key-registry';
import { AccessGuard } from './access/access.guard';
import { ObservePowerHandler } from './observations/observe-power/observe-power.handler';
import { MaintenanceController } from './nodes/maintenance/maintenance.controller';
import { SetMaintenanceHandler } from './nodes/maintenance/maintenance.handlers';
import { DeployTimeoutMonitor } from './nodes/deploy-timeout/deploy-timeout.monitor';
import { LeaseOwnersService } from './application/lease-owners.service';
import { LeaseCommandService } from './application/lease-command.service';
import { DevicesController } from './devices-and-leases/devices/devices.controller';
import { RegisterDeviceHandler, RemoveDeviceHandler } from './devices-and-leases/devices/device-commands.handlers';
import { LeasesController } from './devices-and-leases/leases/leases.controller';
import { GrantLeaseHandler, ReleaseLeaseHandler, RenewLeaseHandler } from './devices-and-leases/leases/lease-commands.handlers';
import { LeaseObservationsController } from './observations/observe-dhcp-leases/lease-observations.controller';
import { ObserveDhcpLeasesHandler } from './observations/observe-dhcp-leases/observe-dhcp-leases.handler';
import { LeaseCascadeService } from './devices-and-leases/lease-cascade/lease-cascade.service';
import { MetricsController } from './metrics/metrics.controller';
import { LedgerMetrics } from './metrics/ledger-metrics';
import { CommandOutcomeInterceptor } from './metrics/command-outcome.interceptor';
import { ReadModelDatabase } from './infrastructure/read-model-database';
import { AuditIndexService } from './audit/audit-index.service';
import { TimeTravelService } from './audit/time-travel/time-travel.service';
import { AuditController } from './audit/audit.controller';
import { StateController } from './audit/time-travel/state.controller';
import { ProjectionsAdminController } from './admin/projections.controller';

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
