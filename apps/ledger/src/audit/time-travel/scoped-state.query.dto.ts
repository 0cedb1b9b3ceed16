import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsPointInLog } from '../../http/query-validators';

/** The point of the log one scope's state is folded to; absent: the head of the log. */
export class ScopedStateQueryDto {
  @ApiPropertyOptional({ description: 'A point of the log: an ISO-8601 time or a global position (default: now).', example: '2025-01-01T12:00:00Z' })
  @IsOptional()
  @IsPointInLog()
  at?: string;
}
