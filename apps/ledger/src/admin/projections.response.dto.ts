import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OPEN_OBJECT } from '../openapi/api-shapes';

export class ProjectionDto {
  @ApiProperty({ enum: ['ledger-view', 'audit-index'], example: 'ledger-view' }) name!: string;
  @ApiProperty({ example: 'ledger-view' }) projection!: string;
  @ApiProperty({ example: 42 }) position!: number;
  @ApiProperty({ ...OPEN_OBJECT, nullable: true, description: 'A rebuild under way: when it started, how far it has folded.' }) rebuilding!: Record<
    string,
    unknown
  > | null;
}

export class ProjectionListResponseDto {
  @ApiProperty({ type: [ProjectionDto] }) projections!: ProjectionDto[];
}

export class RebuildResponseDto {
  @ApiProperty({ example: 'ledger-view' }) name!: string;
  @ApiProperty({ example: 'ledger-view' }) projection!: string;
  @ApiProperty({ enum: ['rebuilding', 'rebuilt'], example: 'rebuilt' }) status!: string;
  @ApiPropertyOptional({ ...OPEN_OBJECT, nullable: true }) rebuilding?: Record<string, unknown> | null;
  @ApiPropertyOptional({ example: 42 }) position?: number;
  @ApiPropertyOptional({ example: 42 }) events?: number;
  @ApiPropertyOptional({ example: 0.2 }) seconds?: number;
}
