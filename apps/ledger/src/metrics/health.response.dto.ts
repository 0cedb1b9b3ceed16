import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OPEN_OBJECT } from '../openapi/api-shapes';

export class HealthSummaryDto {
  @ApiProperty({ enum: ['ok', 'storage_fault'], example: 'ok' }) status!: string;
  @ApiProperty({ ...OPEN_OBJECT, description: 'head, writable, and the fault while the disk refuses writes.', example: { head: 42, writable: true } })
  store!: Record<string, unknown>;
  @ApiProperty({ ...OPEN_OBJECT, example: { position: 42, lag: 0 } }) readModels!: Record<string, unknown>;
}

/** @nestjs/terminus's answer: each check up or down, with what it found. */
export class HealthCheckDto {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'], example: 'ok' }) status!: string;
  @ApiPropertyOptional({ ...OPEN_OBJECT, description: 'The checks that are up.' }) info?: Record<string, unknown>;
  @ApiPropertyOptional({ ...OPEN_OBJECT, description: 'The checks that are down.' }) error?: Record<string, unknown>;
  @ApiProperty({
    ...OPEN_OBJECT,
    description: 'Every check: store, storage, ledger-view, audit-index, lease-cascade.',
    example: { store: { status: 'up', head: 42 }, 'ledger-view': { status: 'up', position: 42, lag: 0 } },
  })
  details!: Record<string, unknown>;
}
