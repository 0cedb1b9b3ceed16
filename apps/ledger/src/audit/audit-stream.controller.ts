import { Controller, Inject, Query, Req, Sse, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { AuditStreamQueryDto } from './audit-stream.query.dto';
import { defer, mergeMap, type Observable } from 'rxjs';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { AuditStreamRequestGuard, type RequestWithAuditStream } from './audit-stream-request.guard';
import { AuditStreamService, type AuditStreamMessage } from './audit-stream.service';

/**
 * `GET /v1/audit/stream`: the log as Server-Sent Events, filtered like `/v1/audit/events`.
 * Each event's `id` is its global position; a client that reconnects with `Last-Event-ID`
 * (or `?after=`) misses nothing and sees nothing twice. Without either, it starts at the head.
 */
@ApiTags('audit and time travel')
@Controller('v1/audit')
export class AuditStreamController {
  constructor(
    private readonly stream: AuditStreamService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Sse('stream')
  @UseGuards(AuditStreamRequestGuard)
  @ApiOperation({ summary: 'The log as Server-Sent Events, filtered like /v1/audit/events; resumable with Last-Event-ID or after' })
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this global position (the id of the last event seen).' })
  @ApiOkResponse({
    description: "An endless text/event-stream: each event's id is its global position and its data one audit envelope as JSON.",
    content: { 'text/event-stream': { schema: { type: 'string' }, example: 'id: 42\ndata: {"position":42,"type":"NodeAcquired"}\n\n' } },
  })
  // The guard has checked the query (a stream's status line is sent before the handler runs); the parameter documents it.
  events(@Req() request: RequestWithAuditStream, @Query() _query: AuditStreamQueryDto): Observable<AuditStreamMessage> {
    const { filter, resumeAfter } = request.auditStream!;
    return defer(async () => resumeAfter ?? (await this.store.headPosition())).pipe(mergeMap((from) => this.stream.events(filter, from, String(request.id))));
  }
}
