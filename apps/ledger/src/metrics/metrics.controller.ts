import { deferredWork } from '@ledger/event-store';
import { Controller, Get, Header } from '@nestjs/common';
import { LedgerMetrics } from './ledger-metrics';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';

@ApiTags('operations')
@Controller()
export class MetricsController {
  constructor(private readonly metrics: LedgerMetrics) {}

  /** Prometheus text exposition format 0.0.4. */
  @Get('metrics')
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format)' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ schema: { type: 'string' }, description: 'Counters, gauges and histograms: see the README.' })
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    // Every request answered before this one is counted, also those whose metrics still wait.
    deferredWork.runNow();
    return this.metrics.render();
  }
}
