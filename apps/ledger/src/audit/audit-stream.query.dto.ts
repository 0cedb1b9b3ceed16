import { OmitType } from '@nestjs/swagger';
import { AuditEventsQueryDto } from './audit-events.query.dto';

/** `GET /v1/audit/stream`: the filters of `/v1/audit/events`; `after` resumes; no paging (a stream has no pages). */
export class AuditStreamQueryDto extends OmitType(AuditEventsQueryDto, ['limit', 'format', 'minPosition'] as const) {}
