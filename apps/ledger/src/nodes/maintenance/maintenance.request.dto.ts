import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, MinLength } from 'class-validator';
import { IsBoundedText } from '../../http/validators';

export class StartMaintenanceRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 512, example: 'replacing a DIMM' })
  @IsBoundedText(512)
  @MinLength(1)
  reason!: string;
}

/** Ending maintenance may say why; the reason may also come in the X-Maintenance-Reason header. */
export class EndMaintenanceRequestDto {
  @ApiPropertyOptional({ maxLength: 512, description: 'Or the X-Maintenance-Reason header.', example: 'DIMM replaced' })
  @IsOptional()
  @IsBoundedText(512)
  reason?: string;
}
