import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { MinPositionQueryDto } from '../http/min-position.query.dto';
import { IsQueryInteger, IsQueryText, IsQueryTime } from '../http/query-validators';
import { LEDGER_ID } from '@ledger/domain';
import { DATE_TIME_REQUEST, integerQuery, IP_SCHEMA } from '../http/value-formats';
import { IsIpAddress } from '../http/address-validators';

export const DEFAULT_AUDIT_LIMIT = 100;
export const MAX_AUDIT_LIMIT = 1_000;
const TEXT = /^[^\u0000-\u001f]{1,128}$/;
const TYPES = /^[A-Za-z][A-Za-z0-9_.:-]{0,127}(,[A-Za-z][A-Za-z0-9_.:-]{0,127}){0,19}$/;

/** `GET /v1/audit/events`: filters (all must match), a time range, and paging by position. */
export class AuditEventsQueryDto extends MinPositionQueryDto {
  @ApiPropertyOptional({ pattern: LEDGER_ID.source, maxLength: 128, example: 'node-7' }) @IsOptional() @IsQueryText(LEDGER_ID, 'a node id') nodeId?: string;
  @ApiPropertyOptional({ pattern: '^[A-Za-z0-9._-]{1,512}$', example: 'node-7.3.k3v9QbX2mT0aLw' })
  @IsOptional()
  @IsQueryText(/^[A-Za-z0-9._-]{1,512}$/, 'a provisioning token')
  token?: string;
  @ApiPropertyOptional(IP_SCHEMA) @IsOptional() @IsQueryText(/^[0-9A-Fa-f.:]{2,64}$/, 'an IPv4 or IPv6 address') @IsIpAddress() ip?: string;
  @ApiPropertyOptional({ pattern: TEXT.source, example: 'juju-1' }) @IsOptional() @IsQueryText(TEXT, '1-128 printable characters') controller?: string;
  @ApiPropertyOptional({ pattern: TEXT.source, example: 'prod' }) @IsOptional() @IsQueryText(TEXT, '1-128 printable characters') model?: string;
  @ApiPropertyOptional({ description: 'An event type, or several separated by commas.', pattern: TYPES.source, example: 'NodeAcquired,AllocationReleased' })
  @IsOptional()
  @IsQueryText(TYPES, 'an event type, or several separated by commas')
  type?: string;
  @ApiPropertyOptional({ ...DATE_TIME_REQUEST, example: '2025-01-01T00:00:00Z' }) @IsOptional() @IsQueryTime() from?: string;
  @ApiPropertyOptional({ ...DATE_TIME_REQUEST, example: '2025-01-02T00:00:00Z' }) @IsOptional() @IsQueryTime() to?: string;
  @ApiPropertyOptional({
    ...integerQuery(0, Number.MAX_SAFE_INTEGER),
    description: "Events after this global position (the previous page's nextAfter).",
    example: 0,
  })
  @IsOptional()
  @IsQueryInteger(0, Number.MAX_SAFE_INTEGER)
  after?: string;
  @ApiPropertyOptional({ ...integerQuery(1, MAX_AUDIT_LIMIT), description: `At most this many events (default ${DEFAULT_AUDIT_LIMIT}).`, example: 100 })
  @IsOptional()
  @IsQueryInteger(1, MAX_AUDIT_LIMIT)
  limit?: string;
  @ApiPropertyOptional({ enum: ['json', 'ndjson'], description: 'ndjson: one envelope per line (also chosen by Accept: application/x-ndjson).' })
  @IsOptional()
  @IsQueryText(/^(json|ndjson)$/, 'json or ndjson')
  format?: 'json' | 'ndjson';
}
