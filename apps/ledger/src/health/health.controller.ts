import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { LedgerViewService } from '../read-side/ledger-view.service';
import { ReadinessIndicators } from './readiness-indicators';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrorDto } from '../openapi/api-error.dto';
import { HealthCheckDto, HealthSummaryDto } from './health.response.dto';

/** A down check is answered in the API's one error shape, the check results in `details`. */
const answerOrUnavailable = async (check: Promise<HealthCheckResult>, message: string): Promise<HealthCheckResult> => {
  try {
    return await check;
  } catch (error) {
    if (!(error instanceof ServiceUnavailableException)) throw error;
    throw new ServiceUnavailableException({ code: 'not_ready', message, details: error.getResponse() });
  }
};

@ApiTags('operations')
@Controller()
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly views: LedgerViewService,
    private readonly health: HealthCheckService,
    private readonly readiness: ReadinessIndicators,
  ) {}

  /** The summary kept from before liveness and readiness were split: the store's head and the read models' lag. */
  @Get('healthz')
  @ApiOperation({ summary: 'Summary: the store head and how far the read models trail it' })
  @ApiOkResponse({ type: HealthSummaryDto })
  async summary() {
    const head = await this.store.headPosition();
    return { status: 'ok', store: { head }, readModels: { position: this.views.view.position, lag: head - this.views.view.position } };
  }

  /** Liveness: the process answers HTTP. Restart it only when this fails. */
  @Get('healthz/live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ type: HealthCheckDto })
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  /** Readiness: send it traffic only when the store answers and nothing following the log trails it too far. */
  @Get('healthz/ready')
  @ApiOperation({ summary: 'Readiness: the store answers and nothing following the log trails it by more than LEDGER_READY_MAX_LAG_EVENTS' })
  @ApiOkResponse({ type: HealthCheckDto })
  @ApiServiceUnavailableResponse({ type: ApiErrorDto, description: 'not_ready: details holds every check, up or down.' })
  ready(): Promise<HealthCheckResult> {
    return answerOrUnavailable(
      this.health.check([() => this.readiness.storeAnswers(), () => this.readiness.logFollowersCurrent()]),
      'not ready: see details.error',
    );
  }
}
