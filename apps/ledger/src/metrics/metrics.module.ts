import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { ReadModelsModule } from '../read-models/read-models.module';
import { LedgerMetrics } from './ledger-metrics';
import { CommandOutcomeInterceptor } from './command-outcome.interceptor';
import { MetricsController } from './metrics.controller';
import { HealthController } from './health.controller';
import { ReadinessIndicators } from './readiness-indicators';

/** Prometheus metrics (prom-client), the command-outcome counter on every route, and liveness/readiness (@nestjs/terminus). */
@Module({
  imports: [ReadModelsModule, TerminusModule.forRoot({ errorLogStyle: 'json' })],
  controllers: [MetricsController, HealthController],
  providers: [LedgerMetrics, ReadinessIndicators, { provide: APP_INTERCEPTOR, useClass: CommandOutcomeInterceptor }],
  exports: [LedgerMetrics],
})
export class MetricsModule {}
