import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiCommandPosition } from '../openapi/api-shapes';

export class PowerObservationResponseDto {
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiProperty({ example: 'ok' }) status!: string;
  @ApiProperty({ description: 'Failed power syncs in a row (LEDGER_POWER_FAILURES_FOR_FAULT of them fault the node).', example: 0 })
  consecutiveFailures!: number;
  @ApiProperty({ type: [String], description: 'Active automatic faults, by name.', example: ['power_failure'] }) faults!: string[];
  @ApiCommandPosition() position!: number | null;
}

export class DhcpLeaseResultDto {
  @ApiProperty({ example: '10.0.0.17' }) ip!: string;
  @ApiProperty({ example: '52:54:00:12:34:56' }) mac!: string;
  @ApiProperty({ enum: ['valid', 'orphaned', 'released', 'unknown'], example: 'orphaned' }) verdict!: string;
  @ApiProperty({ example: 'the owner allocation has ended' }) reason!: string;
  @ApiPropertyOptional({ example: 'node-7.3.k3v9QbX2mT0aLw' }) token?: string;
  @ApiPropertyOptional({ example: 'node-7.3.d1' }) deviceId?: string;
  @ApiPropertyOptional({
    type: String,
    description: 'The ledger lease this binding is (set when valid), e.g. one learned from this very record.',
    example: '10.0.0.17#4',
  })
  leaseId?: string;
}

export class DhcpVerdictSummaryDto {
  @ApiProperty({ example: 10 }) valid!: number;
  @ApiProperty({ example: 2 }) orphaned!: number;
  @ApiProperty({ example: 1 }) released!: number;
  @ApiProperty({ example: 0 }) unknown!: number;
}

export class LeaseObservationsResponseDto {
  @ApiProperty({ example: 'isc:dhcpd.leases' }) source!: string;
  @ApiProperty({ example: 13 }) received!: number;
  @ApiProperty({ type: [DhcpLeaseResultDto], description: 'One verdict per record, in the order sent.' }) results!: DhcpLeaseResultDto[];
  @ApiProperty({ type: DhcpVerdictSummaryDto }) summary!: DhcpVerdictSummaryDto;
  @ApiProperty({ type: Number, nullable: true, description: 'Position of the last event appended (null: nothing new).', example: 42 }) position!: number | null;
}
