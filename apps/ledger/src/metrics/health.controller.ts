import { Controller, Get, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { LedgerViewService } from '../read-models/ledger-view.service';
import { ApiErrorDto } from '../openapi/api-error.dto';
import { StorageHealth } from '../infrastructure/storage-health.service';
import { ExpectedUnavailabilityLog } from '../infrastructure/expected-unavailability';
import { ReadinessIndicators } from './readiness-indicators';
import { HealthCheckDto, HealthSummaryDto } from './health.response.dto';

/** The checks that are down in a terminus answer, as `{name: what it says}`, for the one line that says readiness was lost. */
const downChecks = (response: unknown): Record<string, unknown> => (response as { error?: Record<string, unknown> } | null)?.error ?? {};

@ApiTags('operations')
@Controller()
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly views: LedgerViewService,
    private readonly storage: StorageHealth,
    private readonly health: HealthCheckService,
    private readonly readiness: ReadinessIndicators,
    private readonly unavailability: ExpectedUnavailabilityLog,
  ) {}

  /**
   * The summary kept from before liveness and readiness were split: the store's head, the
   * read models' lag, and whether the ledger can write. While the disk refuses writes: 503,
   * `storage_fault`, and what the condition is (queries keep answering meanwhile).
   */
  @Get('healthz')
  @ApiOperation({ summary: 'Summary: the store head, whether it can write, and how far the read models trail it' })
  @ApiOkResponse({ type: HealthSummaryDto })
  @ApiServiceUnavailableResponse({
    type: HealthSummaryDto,
    description: 'storage_fault: the disk refuses writes (full, read-only, failing, or the store file replaced).',
  })
  async summary(@Res({ passthrough: true }) response: FastifyReply) {
    const { position } = await this.views.current();
    const head = await this.store.headPosition();
    const readModels = { position, lag: head - position };
    const fault = this.storage.current;
    if (!fault) return { status: 'ok', store: { head, writable: true }, readModels };
    response.status(503);
    const { code, component, message, since, refusedWrites } = fault;
    return {
      status: 'storage_fault',
      store: { head, writable: false, fault: { code, component, message, since: since.toISOString(), refusedWrites } },
      readModels,
    };
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
  @ApiOperation({ summary: 'Readiness: the store answers and can write, and nothing following the log trails it by more than LEDGER_READY_MAX_LAG_EVENTS' })
  @ApiOkResponse({ type: HealthCheckDto })
  @ApiServiceUnavailableResponse({ type: ApiErrorDto, description: 'not_ready: details holds every check, up or down.' })
  async ready(): Promise<HealthCheckResult> {
    try {
      const result = await this.health.check([
        () => this.readiness.storeAnswers(),
        () => this.readiness.storageWritable(),
        () => this.readiness.logFollowersCurrent(),
      ]);
      this.unavailability.ended('not_ready', 'ready');
      return result;
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      // A down check is answered in the API's one error shape, the check results in `details`; said once until ready.
      const details = error.getResponse();
      this.unavailability.answered('not_ready', { down: downChecks(details) }, 'not ready: readiness probes are answered 503');
      throw new ServiceUnavailableException({ code: 'not_ready', message: 'not ready: see details.error', details });
    }
  }
}
