import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsQueryInteger } from './query-validators';
import { integerQuery } from './value-formats';

/** Read-your-writes: every query takes the position a command returned, and waits (LEDGER_READ_WAIT_MS) until the read models reflect it. */
export class MinPositionQueryDto {
  @ApiPropertyOptional({
    description:
      'Answer only once the read models reflect this global position (a command returned it); 503 if not within LEDGER_READ_WAIT_MS, 400 if past the newest event of the log.',
    ...integerQuery(0, Number.MAX_SAFE_INTEGER),
    example: 42,
  })
  @IsOptional()
  @IsQueryInteger(0, Number.MAX_SAFE_INTEGER)
  minPosition?: string;
}

/** The position to wait for, if any (the DTO has checked it is digits). */
export const minPositionOf = (query: MinPositionQueryDto): number | undefined => (query.minPosition === undefined ? undefined : Number(query.minPosition));
