import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { MinPositionQueryDto } from '../http/min-position.query.dto';
import { IsPointInLog, IsQueryInteger } from '../http/query-validators';

export class TimelineQueryDto extends MinPositionQueryDto {
  @ApiPropertyOptional({ description: 'Entries after this global position (paging).', example: '0' })
  @IsOptional()
  @IsQueryInteger(0, Number.MAX_SAFE_INTEGER)
  after?: string;
  @ApiPropertyOptional({ description: 'Up to this point of the log: a global position or an ISO-8601 time.', example: '2025-01-01T12:00:00Z' })
  @IsOptional()
  @IsPointInLog('an ISO-8601 time or a global position')
  until?: string;
  @ApiPropertyOptional({ description: 'At most this many entries (default 1000).', example: '1000' }) @IsOptional() @IsQueryInteger(1, 10_000) limit?: string;
}
