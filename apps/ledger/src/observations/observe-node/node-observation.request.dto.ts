import { IsISO8601 } from 'class-validator';
import { IsBoundedText, IsLedgerId } from '../../http/validators';
import type { NodeObservationInput } from './observe-node.handler';

export class NodeObservationRequestDto implements NodeObservationInput {
  @IsLedgerId() nodeId!: string;
  @IsBoundedText(64) providerStatus!: string;
  @IsISO8601({ strict: true }) observedAt!: string;
  @IsBoundedText(128) source!: string;
}
