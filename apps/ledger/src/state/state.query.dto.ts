import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional } from 'class-validator';
import { MinPositionQueryDto } from '../http/min-position.query.dto';
import { IsPointInLog, IsQueryText } from '../http/query-validators';
import { LEDGER_ID } from '../http/validators';

export class StateQueryDto extends MinPositionQueryDto {
  @ApiProperty({ description: 'A point of the log: an ISO-8601 time or a global position.', example: '2025-01-01T12:00:00Z' })
  @IsDefined({ message: 'at is required: an ISO-8601 time or a global position' })
  @IsPointInLog()
  at!: string;

  @ApiPropertyOptional({ description: 'Only what concerns this node.', example: 'node-7' })
  @IsOptional()
  @IsQueryText(LEDGER_ID, 'a node id')
  nodeId?: string;
}
