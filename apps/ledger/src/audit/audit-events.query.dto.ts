import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { MinPositionQueryDto } from '../http/min-position.query.dto';
import { IsQueryInteger, IsQueryText, IsQueryTime } from '../http/query-validators';
import { LEDGER_ID } from '@ledger/domain';

export const DEFAULT_AUDIT_LIMIT = 100;
export const MAX_AUDIT_LIMIT = 1_000;
const TEXT = /^[^\u0000-\u001f]{1,128}$/;
const TYPES = /^[A-Za-z][A-Za-z0-9_.:-]{0,127}(,[A-Za-z][A-Za-z0-9_.:-]{0,127}){0,19}$/;

/** `GET /v1/audit/events`: filters (all must match), a time range, and paging by position. */
export class AuditEventsQueryDto extends MinPositionQueryDto {
  @ApiPropertyOptional({ example: 'node-7' }) @IsOptional() @IsQueryText(LEDGER_ID, 'a node id') nodeId?: string;
  @ApiPropertyOptional({ example: 'node-7.3.k3v9QbX2mT0aLw' }) @IsOptional() @IsQueryText(/^[A-Za-z0-9._-]{1,512}$/, 'a provisioning token') token?: string;
  @ApiPropertyOptional({ example: '10.0.0.17' }) @IsOptional() @IsQueryText(/^[0-9A-Fa-f.:]{2,64}$/, 'an IPv4 or IPv6 address') ip?: string;
  @ApiPropertyOptional({ example: 'juju-1' }) @IsOptional() @IsQueryText(TEXT, '1-128 printable characters') controller?: string;
  @ApiPropertyOptional({ example: 'prod' }) @IsOptional() @IsQueryText(TEXT, '1-128 printable characters') model?: string;
  @ApiPropertyOptional({ description: 'An event type, or several separated by commas.', example: 'NodeAcquired,AllocationReleased' })
  @IsOptional()
  @IsQueryText(TYPES, 'an event type, or several separated by commas')
  type?: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2025-01-01T00:00:00Z' }) @IsOptional() @IsQueryTime() from?: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2025-01-02T00:00:00Z' }) @IsOptional() @IsQueryTime() to?: string;
  @ApiPropertyOptional({ description: "Events after this global position (the previous page's nextAfter).", example: '0' })
  @IsOptional()
  @IsQueryInteger(0, Number.MAX_SAFE_INTEGER)
  after?: string;
  @ApiPropertyOptional({ description: `At most this many events (default ${DEFAULT_AUDIT_LIMIT}).`, example: '100' })
  @IsOptional()
  @IsQueryInteger(1, MAX_AUDIT_LIMIT)
  limit?: string;
  @ApiPropertyOptional({ enum: ['json', 'ndjson'], description: 'ndjson: one envelope per line (also chosen by Accept: application/x-ndjson).' })
  @IsOptional()
  @IsQueryText(/^(json|ndjson)$/, 'json or ndjson')
  format?: 'json' | 'ndjson';
}
