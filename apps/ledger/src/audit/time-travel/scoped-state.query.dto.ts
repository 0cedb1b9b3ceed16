import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsPointInLog } from '../../http/query-validators';
import { POINT_IN_LOG } from '../../http/value-formats';

/** The point of the log one scope's state is folded to; absent: the head of the log. */
export class ScopedStateQueryDto {
  @ApiPropertyOptional({ ...POINT_IN_LOG, description: 'A point of the log: a global position or an RFC 3339 date-time (default: the head).' })
  @IsOptional()
  @IsPointInLog()
  at?: string;
}
