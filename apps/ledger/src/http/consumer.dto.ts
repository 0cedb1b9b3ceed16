import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsBoundedText } from './validators';

/** Who asks: a consumer as the acquire and reconcile bodies name it. */
export class ConsumerDto {
  @ApiProperty({ description: 'The orchestrator (a Juju controller, Nova...).', maxLength: 128, example: 'juju-1' })
  @IsBoundedText(128)
  controller!: string;
  @ApiProperty({ maxLength: 128, example: 'prod' })
  @IsBoundedText(128)
  model!: string;
  @ApiPropertyOptional({ maxLength: 128, example: '0' })
  @IsOptional()
  @IsBoundedText(128)
  machine?: string;
  @ApiPropertyOptional({ maxLength: 128, example: 'autopilot' })
  @IsOptional()
  @IsBoundedText(128)
  agentName?: string;
  @ApiPropertyOptional({ maxLength: 128, example: 'alice' })
  @IsOptional()
  @IsBoundedText(128)
  owner?: string;
}
