import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsBoundedText, IsLedgerId } from '../../http/validators';
import type { ReserveNodeInput } from './reservations.handlers';

export class ReserveNodeRequestDto implements ReserveNodeInput {
  @IsLedgerId() agentName!: string;
  @IsOptional() @IsBoundedText(128) owner?: string;
  @IsOptional() @IsInt() @Min(1) @Max(365 * 86_400) ttlSeconds?: number;
}

export class CancelReservationRequestDto {
  @IsBoundedText(256) reservationKey!: string;
}
