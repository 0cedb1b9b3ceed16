import { BadRequestException, type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { LiveAuditFilter } from '@ledger/projections';
import { integerParam } from '../http/query-params';
import { LedgerValidationPipe } from '../http/ledger-validation.pipe';
import { parseAuditFilter } from './audit-filter';
import { AuditStreamQueryDto } from './audit-stream.query.dto';

const validation = new LedgerValidationPipe();

export interface AuditStreamRequest {
  filter: LiveAuditFilter;
  /** Resume after this position (Last-Event-ID or `after`); undefined: from the head. */
  resumeAfter: number | undefined;
}

export type RequestWithAuditStream = FastifyRequest & { auditStream?: AuditStreamRequest };

/**
 * Checks a stream request before the stream starts. A server-sent event stream's status
 * line is written before its handler runs, so a bad filter found by a pipe or by the
 * handler could only be reported inside a 200 stream; found here, it is a plain 400.
 */
@Injectable()
export class AuditStreamRequestGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithAuditStream>();
    const query = request.query as Record<string, unknown>;
    for (const paging of ['limit', 'format', 'minPosition']) {
      if (query[paging] !== undefined)
        throw new BadRequestException({ code: 'invalid_request', message: `${paging} has no meaning on a stream (resume with after or Last-Event-ID)` });
    }
    // The same checks (and messages) as the query DTO of /v1/audit/events, run here so a bad filter is a 400.
    const checked = (await validation.transform(query, { type: 'query', metatype: AuditStreamQueryDto })) as AuditStreamQueryDto;
    const { filter } = parseAuditFilter(checked);
    const header = request.headers['last-event-id'];
    const lastEventId = integerParam('Last-Event-ID', typeof header === 'string' ? header : undefined, 0, Number.MAX_SAFE_INTEGER);
    const { after, until: _until, limit: _limit, ...live } = filter;
    request.auditStream = { filter: live, resumeAfter: lastEventId ?? after };
    return true;
  }
}
