import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { LoggerModule } from 'nestjs-pino';
import { InfrastructureModule, type InfrastructureOptions } from './infrastructure/infrastructure.module';
import type { Logger } from 'pino';
import { LedgerValidationPipe } from './http/ledger-validation.pipe';
import { LedgerExceptionFilter } from './http/ledger-exception.filter';
import { AllocationsModule } from './allocations/allocations.module';
import { DevicesAndLeasesModule } from './devices-and-leases/devices-and-leases.module';
import { NodesModule } from './nodes/nodes.module';
import { ObservationsModule } from './observations/observations.module';
import { AuditModule } from './audit/audit.module';
import { AdminModule } from './admin/admin.module';
import { AccessModule } from './access/access.module';
import { MetricsModule } from './metrics/metrics.module';

export type LedgerModuleOptions = InfrastructureOptions & { logger: Logger };

/**
 * The ledger: one module per capability, the infrastructure module owning the store and
 * the read-model database, and the HTTP edge (validation pipe, the one exception filter).
 */
@Module({})
export class LedgerModule {
  static register(options: LedgerModuleOptions): DynamicModule {
    return {
      module: LedgerModule,
      imports: [
        CqrsModule.forRoot(),
        // Services log through nestjs-pino's PinoLogger, on the same pino logger as fastify's
        // request logger, and its middleware is on no route: it would put the request's logger
        // in an AsyncLocalStorage, whose promise hooks cost every promise of the process on
        // Node 20 (about 100 µs of main thread per request at 64 clients,
        // bench/results/2026-11-30-http-logging-ab.md).
        // What a request causes to be logged names its correlation id itself.
        LoggerModule.forRoot({ pinoHttp: { logger: options.logger }, useExisting: true, forRoutes: [] }),
        InfrastructureModule.register(options),
        // Global guards run in module order: the access guard first, so a request refused at
        // the door never reaches the command metric's guard (test/metrics-and-group-commit).
        AccessModule,
        MetricsModule,
        NodesModule,
        AllocationsModule,
        DevicesAndLeasesModule,
        ObservationsModule,
        AuditModule,
        AdminModule,
      ],
      providers: [
        { provide: APP_PIPE, useClass: LedgerValidationPipe },
        { provide: APP_FILTER, useClass: LedgerExceptionFilter },
      ],
    };
  }
}
