import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsQueryText } from '../http/query-validators';

export class RebuildQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'true: answer 200 once the new model answers; else 202 at once.', example: 'true' })
  @IsOptional()
  @IsQueryText(/^(true|false)$/, 'true or false')
  wait?: 'true' | 'false';
}
