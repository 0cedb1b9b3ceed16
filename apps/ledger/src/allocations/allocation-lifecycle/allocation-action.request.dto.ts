import { IsBoolean, IsOptional } from 'class-validator';
import { IsBoundedText, IsLedgerId } from '../../http/validators';
import type { ModelReleaseInput } from '../release-model/release-model.handler';

/** Body of deploying / deployed / failed reports. */
export class DeploymentReportRequestDto {
  @IsOptional() @IsLedgerId() requestId?: string;
  @IsOptional() @IsBoundedText(1024) reason?: string;
  @IsOptional() @IsBoundedText(128) source?: string;
}

export class ReleaseRequestDto {
  @IsOptional() @IsLedgerId() requestId?: string;
  @IsOptional() @IsBoolean() force?: boolean;
}

export class ModelReleaseRequestDto implements ModelReleaseInput {
  @IsBoundedText(128) controller!: string;
  @IsBoundedText(128) model!: string;
  @IsOptional() @IsBoolean() force?: boolean;
  @IsOptional() @IsLedgerId() requestId?: string;
}
