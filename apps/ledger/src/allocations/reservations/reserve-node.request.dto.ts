import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsBoundedText, IsLedgerId } from '../../http/validators';
import { LEDGER_ID } from '@ledger/domain';
import type { ReserveNodeInput } from './reservations.handlers';

export class ReserveNodeRequestDto implements ReserveNodeInput {
  @ApiProperty({ pattern: LEDGER_ID.source, example: 'autopilot' })
  @IsLedgerId()
  agentName!: string;
  @ApiPropertyOptional({ maxLength: 128, example: 'alice' })
  @IsOptional()
  @IsBoundedText(128)
  owner?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 31536000, description: 'Default one hour (at most LEDGER_RESERVATION_TTL_MAX_SECONDS).', example: 3600 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(365 * 86_400)
  ttlSeconds?: number;
}

export class CancelReservationRequestDto {
  @ApiProperty({ maxLength: 256, example: 'rk_5Jq0cV2x9L' })
  @IsBoundedText(256)
  reservationKey!: string;
}
