import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional } from 'class-validator';
import { MinPositionQueryDto } from '../../http/min-position.query.dto';
import { IsPointInLog, IsQueryInteger, IsQueryText } from '../../http/query-validators';
import { LEDGER_ID } from '@ledger/domain';

/** Entities per page of a whole-ledger state document: a large ledger is sent in pieces. */
export const DEFAULT_STATE_LIMIT = 1_000;
export const MAX_STATE_LIMIT = 10_000;

export class StateQueryDto extends MinPositionQueryDto {
  @ApiProperty({ description: 'A point of the log: an ISO-8601 time or a global position.', example: '2025-01-01T12:00:00Z' })
  @IsDefined({ message: 'at is required: an ISO-8601 time or a global position' })
  @IsPointInLog()
  at!: string;

  @ApiPropertyOptional({ description: 'Only what concerns this node.', example: 'node-7' })
  @IsOptional()
  @IsQueryText(LEDGER_ID, 'a node id')
  nodeId?: string;

  @ApiPropertyOptional({ description: `Entities per page (default ${DEFAULT_STATE_LIMIT}).`, example: '1000' })
  @IsOptional()
  @IsQueryInteger(1, MAX_STATE_LIMIT)
  limit?: string;

  @ApiPropertyOptional({ description: 'Continue after this cursor: the `next` of the previous page.', example: 'nodes:node-7' })
  @IsOptional()
  @IsQueryText(/^(nodes|allocations|devices|leases):[^\u0000-\u001f]{1,600}$/, 'a cursor from a previous page (next)')
  after?: string;
}
