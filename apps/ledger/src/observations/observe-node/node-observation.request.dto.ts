import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { IsBoundedText, IsLedgerId, IsIsoTime } from '../../http/validators';
import { LEDGER_ID } from '@ledger/domain';
import { DATE_TIME_REQUEST } from '../../http/value-formats';
import type { NodeObservationInput } from './observe-node.handler';

export class NodeObservationRequestDto implements NodeObservationInput {
  @ApiProperty({ pattern: LEDGER_ID.source, maxLength: 128, example: 'node-7' })
  @IsLedgerId()
  nodeId!: string;
  @ApiProperty({ description: "The provider's word for the node's state (MAAS: Ready, Deployed, Released...).", maxLength: 64, example: 'Ready' })
  @IsBoundedText(64)
  providerStatus!: string;
  @ApiProperty(DATE_TIME_REQUEST)
  @IsIsoTime()
  observedAt!: string;
  @ApiProperty({ maxLength: 128, example: 'maas' })
  @IsBoundedText(128)
  source!: string;
  @ApiPropertyOptional({
    description:
      'The provider says someone outside the ledger holds the machine (MAAS: another user owns it): the live allocation is revoked, whatever the status.',
    example: false,
  })
  @IsOptional()
  @IsBoolean()
  heldOutOfBand?: boolean;
}
