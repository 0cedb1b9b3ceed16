import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsBoundedText, IsName } from '../../http/validators';
import { AGENT_NAME } from '@ledger/domain';
import { nameSchema } from '../../http/value-formats';
import type { ReserveNodeInput } from './reservations.handlers';

export class ReserveNodeRequestDto implements ReserveNodeInput {
  @ApiProperty(nameSchema(AGENT_NAME, 'autopilot'))
  @IsName(AGENT_NAME)
  agentName!: string;
  @ApiPropertyOptional({ maxLength: 128, example: 'alice' })
  @IsOptional()
  @IsBoundedText(128)
  owner?: string;
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 365 * 86_400,
    description: 'Default one hour. A longer one than LEDGER_RESERVATION_TTL_MAX_SECONDS (default 604800) is cut to it: expiresAt says when it ends.',
    example: 3600,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(365 * 86_400)
  ttlSeconds?: number;
}

export class CancelReservationRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 256, example: 'rk_5Jq0cV2x9L' })
  @IsBoundedText(256)
  reservationKey!: string;
}
