import { BadRequestException, Controller, Get, Headers, Inject, NotFoundException, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { parsePointInLog, positionAtTime } from '@ledger/projections';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { NodeIdParam } from '../http/params';
import { integerParam, queryParams } from '../http/query-params';
import { AuditIndexService } from './audit-index.service';
import { parseAuditFilter } from './audit-filter';

const NDJSON = 'application/x-ndjson';

/** The log, filtered and paged, and a node's story, from the audit index. */
@Controller('v1/audit')
export class AuditController {
  constructor(
    private readonly audit: AuditIndexService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  /** `{events, nextAfter, position}`, or one envelope per line (NDJSON) with X-Next-After and X-Position headers. */
  @Get('events')
  async events(@Query() query: Record<string, unknown>, @Headers('accept') accept: string | undefined, @Res() response: Response): Promise<void> {
    const { filter, format, minPosition } = parseAuditFilter(query);
    await this.audit.atLeast(minPosition);
    const page = await this.audit.reader.events(filter);
    if (format === 'ndjson' || (format === undefined && (accept ?? '').includes(NDJSON))) {
      response.setHeader('X-Next-After', page.nextAfter === null ? '' : String(page.nextAfter));
      response.setHeader('X-Position', String(page.position));
      response
        .status(200)
        .type(NDJSON)
        .send(page.events.map((event) => `${event}\n`).join(''));
      return;
    }
    // The stored envelopes are JSON already: spliced in, not parsed and printed again.
    response
      .status(200)
      .type('application/json')
      .send(`{"events":[${page.events.join(',')}],"nextAfter":${page.nextAfter},"position":${page.position}}`);
  }

  /** Every event about the node in order, refusals included, each with who, which token, and what changed in words. */
  @Get('nodes/:nodeId/timeline')
  async timeline(@Param('nodeId', NodeIdParam) nodeId: string, @Query() query: Record<string, unknown>) {
    const params = queryParams(query, ['after', 'until', 'limit', 'minPosition']);
    const after = integerParam('after', params.after, 0, Number.MAX_SAFE_INTEGER);
    const limit = integerParam('limit', params.limit, 1, 10_000) ?? 1_000;
    const untilPoint = params.until === undefined ? undefined : parsePointInLog(params.until);
    if (untilPoint === null) throw new BadRequestException({ code: 'invalid_request', message: 'until must be an ISO-8601 time or a global position' });
    await this.audit.atLeast(integerParam('minPosition', params.minPosition, 0, Number.MAX_SAFE_INTEGER));
    const until = untilPoint === undefined ? undefined : 'position' in untilPoint ? untilPoint.position : await positionAtTime(this.store, untilPoint.time);
    const timeline = this.audit.reader.timeline(nodeId, { after, until, limit });
    if (!timeline) throw new NotFoundException({ code: 'not_found', message: `the audit index has no events about node ${nodeId}` });
    return timeline;
  }
}
