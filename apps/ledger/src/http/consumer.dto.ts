import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { AGENT_NAME, CONTROLLER_NAME, MODEL_NAME } from '@ledger/domain';
import { nameSchema } from './value-formats';
import { IsBoundedText, IsName } from './validators';

/** Who asks: a consumer as the acquire and reconcile bodies name it. Controller, model and agent names follow the rules of the systems they come from. */
export class ConsumerDto {
  @ApiProperty({ ...nameSchema(CONTROLLER_NAME, 'juju-1'), description: `The orchestrator (a Juju controller, Nova...): ${CONTROLLER_NAME.says}.` })
  @IsName(CONTROLLER_NAME)
  controller!: string;
  @ApiProperty(nameSchema(MODEL_NAME, 'prod'))
  @IsName(MODEL_NAME)
  model!: string;
  @ApiPropertyOptional({ maxLength: 128, example: '0' })
  @IsOptional()
  @IsBoundedText(128)
  machine?: string;
  @ApiPropertyOptional(nameSchema(AGENT_NAME, 'autopilot'))
  @IsOptional()
  @IsName(AGENT_NAME)
  agentName?: string;
  @ApiPropertyOptional({ maxLength: 128, example: 'alice' })
  @IsOptional()
  @IsBoundedText(128)
  owner?: string;
}

/** A consumer as the ledger shows it: what was recorded (names given before the name rules were checked are shown as they are). */
export class ConsumerViewDto {
  @ApiProperty({ example: 'juju-1' }) controller!: string;
  @ApiProperty({ example: 'prod' }) model!: string;
  @ApiPropertyOptional({ example: '0' }) machine?: string;
  @ApiPropertyOptional({ example: 'autopilot' }) agentName?: string;
  @ApiPropertyOptional({ example: 'alice' }) owner?: string;
}
