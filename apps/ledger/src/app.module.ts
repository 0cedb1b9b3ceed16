import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { LoggerModule } from 'nestjs-pino';
import { InfrastructureModule, type InfrastructureOptions } from './infrastructure/infrastructure.module';
import { httpLoggerOptions } from './http/http-logging';
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

export type LedgerModuleOptions = InfrastructureOptions;

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
        LoggerModule.forRoot({
          pinoHttp: httpLoggerOptions(options.config),
        }),
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
