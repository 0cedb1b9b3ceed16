import { Controller, Inject, Req, Sse, UseGuards } from '@nestjs/common';
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
@Controller('v1/audit')
export class AuditStreamController {
  constructor(
    private readonly stream: AuditStreamService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Sse('stream')
  @UseGuards(AuditStreamRequestGuard)
  events(@Req() request: RequestWithAuditStream): Observable<AuditStreamMessage> {
    const { filter, resumeAfter } = request.auditStream!;
    return defer(async () => resumeAfter ?? (await this.store.headPosition())).pipe(mergeMap((from) => this.stream.events(filter, from)));
  }
}
