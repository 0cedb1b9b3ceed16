import { Controller, Get, Header } from '@nestjs/common';
import { LedgerMetrics } from './ledger-metrics';

@Controller()
export class MetricsController {
  constructor(private readonly metrics: LedgerMetrics) {}

  /** Prometheus text exposition format 0.0.4. */
  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.render();
  }
}
