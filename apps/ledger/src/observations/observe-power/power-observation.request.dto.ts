import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { IsBoundedText, IsLedgerId, IsIsoTime } from '../../http/validators';
import { LEDGER_ID } from '@ledger/domain';
import { DATE_TIME_REQUEST } from '../../http/value-formats';
import type { PowerObservationInput } from './observe-power.handler';

/** One power-sync result: `ok: false` with what went wrong, or `ok: true`. */
export class PowerObservationRequestDto implements PowerObservationInput {
  @ApiProperty({ pattern: LEDGER_ID.source, maxLength: 128, example: 'node-7' })
  @IsLedgerId()
  nodeId!: string;
  @ApiProperty({ example: false })
  @IsBoolean()
  ok!: boolean;
  @ApiPropertyOptional({ maxLength: 1024, example: 'BMC timeout' })
  @IsOptional()
  @IsBoundedText(1024)
  error?: string;
  @ApiProperty(DATE_TIME_REQUEST)
  @IsIsoTime()
  observedAt!: string;
}
