import { IsOptional, MinLength } from 'class-validator';
import { IsBoundedText } from '../../http/validators';

export class StartMaintenanceRequestDto {
  @IsBoundedText(512) @MinLength(1) reason!: string;
}

/** Ending maintenance may say why; the reason may also come in the X-Maintenance-Reason header. */
export class EndMaintenanceRequestDto {
  @IsOptional() @IsBoundedText(512) reason?: string;
}
