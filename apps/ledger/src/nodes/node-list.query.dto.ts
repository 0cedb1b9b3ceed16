import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { NODE_CONDITIONS, NODE_STATUSES, type NodeCondition, type NodeStatus } from '@ledger/projections';
import { MinPositionQueryDto } from '../http/min-position.query.dto';

export class NodeListQueryDto extends MinPositionQueryDto {
  @ApiPropertyOptional({ enum: NODE_STATUSES, example: 'ready' })
  @IsOptional()
  @IsIn(NODE_STATUSES, { message: `status must be one of ${NODE_STATUSES.join(', ')}` })
  status?: NodeStatus;

  @ApiPropertyOptional({ enum: NODE_CONDITIONS, description: 'Only nodes with this health condition (seed 4).', example: 'faulted' })
  @IsOptional()
  @IsIn(NODE_CONDITIONS, { message: `condition must be one of ${NODE_CONDITIONS.join(', ')}` })
  condition?: NodeCondition;
}
