import { BadRequestException } from '@nestjs/common';
import { normaliseIp, parseRfc3339Time } from '@ledger/domain';
import type { AuditFilter } from '@ledger/projections';
import { minPositionOf } from '../http/min-position.query.dto';
import { type AuditEventsQueryDto, DEFAULT_AUDIT_LIMIT } from './audit-events.query.dto';

const integer = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));
const time = (value: string | undefined): Date | undefined => (value === undefined ? undefined : (parseRfc3339Time(value) ?? undefined));

/** `GET /v1/audit/events` query parameters (each checked by the DTO) as the index's filter. */
export const parseAuditFilter = (
  query: AuditEventsQueryDto,
): { filter: AuditFilter; format: 'json' | 'ndjson' | undefined; minPosition: number | undefined } => {
  const filter: AuditFilter = {
    nodeId: query.nodeId,
    token: query.token,
    ip: query.ip === undefined ? undefined : (normaliseIp(query.ip) ?? query.ip),
    controller: query.controller,
    model: query.model,
    types: query.type?.split(','),
    from: time(query.from),
    to: time(query.to),
    after: integer(query.after),
    limit: integer(query.limit) ?? DEFAULT_AUDIT_LIMIT,
  };
  if (filter.from && filter.to && filter.from.getTime() > filter.to.getTime()) {
    throw new BadRequestException({ code: 'invalid_request', message: 'from must not be after to' });
  }
  return { filter, format: query.format, minPosition: minPositionOf(query) };
};
