import { IsBoolean, IsISO8601, IsOptional } from 'class-validator';
import { IsBoundedText, IsLedgerId } from '../../http/validators';
import type { PowerObservationInput } from './observe-power.handler';

/** One power-sync result: `ok: false` with what went wrong, or `ok: true`. */
export class PowerObservationRequestDto implements PowerObservationInput {
  @IsLedgerId() nodeId!: string;
  @IsBoolean() ok!: boolean;
  @IsOptional() @IsBoundedText(1024) error?: string;
  @IsISO8601({ strict: true }) observedAt!: string;
}
