import { Controller, Get, Headers, NotFoundException, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { parsePointInLog, positionAtTime } from '@ledger/projections';
import { NodeIdParam } from '../http/params';
import { AuditIndexService } from './audit-index.service';
import { parseAuditFilter } from './audit-filter';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { minPositionOf } from '../http/min-position.query.dto';
import { ApiNodeIdParam } from '../openapi/api-params';
import { AuditEventsQueryDto } from './audit-events.query.dto';
import { TimelineQueryDto } from './timeline.query.dto';
import { AuditEventsResponseDto, TimelineResponseDto } from './audit.response.dto';

const NDJSON = 'application/x-ndjson';

/** The log, filtered and paged, and a node's story, from the audit index. */
@ApiTags('audit and time travel')
@Controller('v1/audit')
export class AuditController {
  constructor(private readonly audit: AuditIndexService) {}

  /** `{events, nextAfter, position}`, or one envelope per line (NDJSON) with X-Next-After and X-Position headers. */
  @Get('events')
  @ApiOperation({
    summary: 'The log, filtered and paged',
    description: 'JSON by default; one envelope per line (NDJSON) with X-Next-After and X-Position headers for format=ndjson or Accept: application/x-ndjson.',
  })
  @ApiProduces('application/json', 'application/x-ndjson')
  @ApiOkResponse({ type: AuditEventsResponseDto })
  async events(@Query() query: AuditEventsQueryDto, @Headers('accept') accept: string | undefined, @Res() response: FastifyReply): Promise<void> {
    const { filter, format, minPosition } = parseAuditFilter(query);
    await this.audit.atLeast(minPosition);
    const page = await this.audit.reader.events(filter);
    if (format === 'ndjson' || (format === undefined && (accept ?? '').includes(NDJSON))) {
      void response
        .header('X-Next-After', page.nextAfter === null ? '' : String(page.nextAfter))
        .header('X-Position', String(page.position))
        .status(200)
        .type(`${NDJSON}; charset=utf-8`)
        .send(page.events.map((event) => `${event}\n`).join(''));
      return;
    }
    // The stored envelopes are JSON already: spliced in, not parsed and printed again.
    void response
      .status(200)
      .type('application/json; charset=utf-8')
      .send(`{"events":[${page.events.join(',')}],"nextAfter":${page.nextAfter},"position":${page.position}}`);
  }

  /** Every event about the node in order, refusals included, each with who, which token, and what changed in words. */
  @Get('nodes/:nodeId/timeline')
  @ApiOperation({ summary: "A node's story: every event about it in order, refusals included, each in words" })
  @ApiNodeIdParam()
  @ApiOkResponse({ type: TimelineResponseDto })
  async timeline(@Param('nodeId', NodeIdParam) nodeId: string, @Query() query: TimelineQueryDto) {
    const after = query.after === undefined ? undefined : Number(query.after);
    const limit = query.limit === undefined ? 1_000 : Number(query.limit);
    // The DTO has checked it is a point of the log.
    const untilPoint = query.until === undefined ? undefined : parsePointInLog(query.until)!;
    await this.audit.atLeast(minPositionOf(query));
    const until = untilPoint === undefined ? undefined : 'position' in untilPoint ? untilPoint.position : await positionAtTime(this.audit.log, untilPoint.time);
    const timeline = await this.audit.reader.timeline(nodeId, { after, until, limit });
    if (!timeline) throw new NotFoundException({ code: 'not_found', message: `the audit index has no events about node ${nodeId}` });
    return timeline;
  }
}
