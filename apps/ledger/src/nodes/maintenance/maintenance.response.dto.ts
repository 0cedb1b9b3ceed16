import { ApiProperty } from '@nestjs/swagger';
import { TIME } from '../../openapi/api-shapes';

export class MaintenanceDto {
  @ApiProperty({ example: 'replacing a DIMM' }) reason!: string;
  @ApiProperty({ example: 'operator:alice' }) by!: string;
  @ApiProperty(TIME) since!: string;
}

export class MaintenanceResponseDto {
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiProperty({ type: MaintenanceDto, nullable: true, description: 'null once maintenance is off.' }) maintenance!: MaintenanceDto | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Position of the event (null: it was already so, nothing appended).', example: 42 }) position!:
    number | null;
}
