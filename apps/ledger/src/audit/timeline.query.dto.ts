import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { MinPositionQueryDto } from '../http/min-position.query.dto';
import { IsPointInLog, IsQueryInteger } from '../http/query-validators';
import { integerQuery, POINT_IN_LOG } from '../http/value-formats';

export class TimelineQueryDto extends MinPositionQueryDto {
  @ApiPropertyOptional({ ...integerQuery(0, Number.MAX_SAFE_INTEGER), description: 'Entries after this global position (paging).', example: 0 })
  @IsOptional()
  @IsQueryInteger(0, Number.MAX_SAFE_INTEGER)
  after?: string;
  @ApiPropertyOptional({ ...POINT_IN_LOG, description: 'Up to this point of the log: a global position or an RFC 3339 date-time.' })
  @IsOptional()
  @IsPointInLog()
  until?: string;
  @ApiPropertyOptional({ ...integerQuery(1, 10_000), description: 'At most this many entries (default 1000).', example: 1000 })
  @IsOptional()
  @IsQueryInteger(1, 10_000)
  limit?: string;
}
