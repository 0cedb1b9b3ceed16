import { IsOptional } from 'class-validator';
import { IsBoundedText } from './validators';

/** Who asks: a consumer as the acquire and reconcile bodies name it. */
export class ConsumerDto {
  @IsBoundedText(128) controller!: string;
  @IsBoundedText(128) model!: string;
  @IsOptional() @IsBoundedText(128) machine?: string;
  @IsOptional() @IsBoundedText(128) agentName?: string;
  @IsOptional() @IsBoundedText(128) owner?: string;
}
