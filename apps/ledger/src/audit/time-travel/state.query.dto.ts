import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional } from 'class-validator';
import { MinPositionQueryDto } from '../../http/min-position.query.dto';
import { IsPointInLog, IsQueryInteger, IsQueryText } from '../../http/query-validators';
import { LEDGER_ID } from '@ledger/domain';
import { integerQuery, POINT_IN_LOG } from '../../http/value-formats';

/** Entities per page of a whole-ledger state document: a large ledger is sent in pieces. */
export const DEFAULT_STATE_LIMIT = 1_000;
export const MAX_STATE_LIMIT = 10_000;

export class StateQueryDto extends MinPositionQueryDto {
  @ApiProperty(POINT_IN_LOG)
  @IsDefined({ message: 'at is required: an RFC 3339 date-time or a global position' })
  @IsPointInLog()
  at!: string;

  @ApiPropertyOptional({ description: 'Only what concerns this node.', pattern: LEDGER_ID.source, maxLength: 128, example: 'node-7' })
  @IsOptional()
  @IsQueryText(LEDGER_ID, 'a node id')
  nodeId?: string;

  @ApiPropertyOptional({ ...integerQuery(1, MAX_STATE_LIMIT), description: `Entities per page (default ${DEFAULT_STATE_LIMIT}).`, example: 1000 })
  @IsOptional()
  @IsQueryInteger(1, MAX_STATE_LIMIT)
  limit?: string;

  @ApiPropertyOptional({
    description: 'Continue after this cursor: the `next` of the previous page.',
    pattern: '^(nodes|allocations|devices|leases):[^\\u0000-\\u001f]{1,600}$',
    example: 'nodes:node-7',
  })
  @IsOptional()
  @IsQueryText(/^(nodes|allocations|devices|leases):[^\u0000-\u001f]{1,600}$/, 'a cursor from a previous page (next)')
  after?: string;
}
