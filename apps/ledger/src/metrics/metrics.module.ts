import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ReadModelsModule } from '../read-models/read-models.module';
import { LedgerMetrics } from './ledger-metrics';
import { CommandOutcomeInterceptor } from './command-outcome.interceptor';
import { MetricsController } from './metrics.controller';
import { HealthController } from './health.controller';

/** Prometheus metrics, the command-outcome counter on every route, and liveness/readiness. */
@Module({
  imports: [ReadModelsModule],
  controllers: [MetricsController, HealthController],
  providers: [LedgerMetrics, { provide: APP_INTERCEPTOR, useClass: CommandOutcomeInterceptor }],
  exports: [LedgerMetrics],
})
export class MetricsModule {}
