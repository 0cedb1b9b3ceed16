import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { ReadModelsModule } from '../read-models/read-models.module';
import { LedgerMetrics } from './ledger-metrics';
import { CommandMetricsGuard } from './command-metrics.guard';
import { MetricsController } from './metrics.controller';
import { HealthController } from './health.controller';
import { ReadinessIndicators } from './readiness-indicators';

/** Prometheus metrics (prom-client), the command counter and timer on every command route (a guard registered after the access guard's module, so refused keys are not counted as commands), and liveness/readiness (@nestjs/terminus; its own error line per failed probe is off: HealthController says a lost readiness once). */
@Module({
  imports: [ReadModelsModule, TerminusModule.forRoot({ logger: false })],
  controllers: [MetricsController, HealthController],
  providers: [LedgerMetrics, ReadinessIndicators, { provide: APP_GUARD, useClass: CommandMetricsGuard }],
  exports: [LedgerMetrics],
})
export class MetricsModule {}
