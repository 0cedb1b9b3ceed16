import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { IsBoundedText, IsLedgerId, IsName } from '../../http/validators';
import { CONTROLLER_NAME, LEDGER_ID, MODEL_NAME } from '@ledger/domain';
import { nameSchema } from '../../http/value-formats';
import type { ModelReleaseInput } from '../release-model/release-model.handler';

/** Body of deploying / deployed / failed reports. */
export class DeploymentReportRequestDto {
  @ApiPropertyOptional({ pattern: LEDGER_ID.source, example: 'dep-0001' })
  @IsOptional()
  @IsLedgerId()
  requestId?: string;
  @ApiPropertyOptional({ description: 'For failed: what went wrong.', maxLength: 1024, example: 'curtin failed' })
  @IsOptional()
  @IsBoundedText(1024)
  reason?: string;
  @ApiPropertyOptional({ description: 'For failed: who says so (default consumer).', maxLength: 128, example: 'maas' })
  @IsOptional()
  @IsBoundedText(128)
  source?: string;
}

export class ReleaseRequestDto {
  @ApiPropertyOptional({ pattern: LEDGER_ID.source, example: 'rel-0001' })
  @IsOptional()
  @IsLedgerId()
  requestId?: string;
  @ApiPropertyOptional({ description: 'Forced release: operators only.', example: false })
  @IsOptional()
  @IsBoolean()
  force?: boolean;
}

export class ModelReleaseRequestDto implements ModelReleaseInput {
  @ApiProperty(nameSchema(CONTROLLER_NAME, 'juju-1'))
  @IsName(CONTROLLER_NAME)
  controller!: string;
  @ApiProperty(nameSchema(MODEL_NAME, 'prod'))
  @IsName(MODEL_NAME)
  model!: string;
  @ApiPropertyOptional({ example: false })
  @IsOptional()
  @IsBoolean()
  force?: boolean;
  @ApiPropertyOptional({ pattern: LEDGER_ID.source, example: 'destroy-prod-1' })
  @IsOptional()
  @IsLedgerId()
  requestId?: string;
}
