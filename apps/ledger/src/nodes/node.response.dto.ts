import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NODE_STATUSES } from '@ledger/projections';
import { ConsumerDto } from '../http/consumer.dto';
import { ApiCommandPosition, ApiPosition, EXAMPLE_TIME, EXAMPLE_TOKEN, OPEN_OBJECT } from '../openapi/api-shapes';

export class EnlistNodeResponseDto {
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiCommandPosition() position!: number | null;
}

export class NodeAllocationSummaryDto {
  @ApiProperty({ example: EXAMPLE_TOKEN }) token!: string;
  @ApiProperty({ example: 3 }) epoch!: number;
  @ApiProperty({ type: ConsumerDto }) consumer!: ConsumerDto;
  @ApiProperty({ example: 'deployed' }) status!: string;
  @ApiProperty({ example: EXAMPLE_TIME }) acquiredAt!: string;
}

export class NodeReservationDto {
  @ApiProperty({ example: 'rsv-1' }) reservationId!: string;
  @ApiProperty({ example: 'autopilot' }) agentName!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) owner!: string | null;
  @ApiProperty({ example: EXAMPLE_TIME }) expiresAt!: string;
}

export class NodeFaultDto {
  @ApiProperty({ example: 'power_failure' }) name!: string;
  @ApiProperty({ example: EXAMPLE_TIME }) since!: string;
  @ApiProperty({ type: String, nullable: true, example: 'BMC timeout' }) lastError!: string | null;
  @ApiPropertyOptional({ example: EXAMPLE_TOKEN }) token?: string;
}

export class NodeViewDto {
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiProperty({ example: 'node-7.maas' }) hostname!: string;
  @ApiProperty({ example: 'amd64' }) arch!: string;
  @ApiProperty({ example: 8 }) cpuCount!: number;
  @ApiProperty({ example: 16384 }) memoryMb!: number;
  @ApiProperty({ type: [String], example: ['gpu'] }) tags!: string[];
  @ApiProperty({ example: 'default' }) zone!: string;
  @ApiProperty({ enum: NODE_STATUSES, example: 'ready' }) status!: string;
  @ApiProperty({ description: 'Allocations this node has had.', example: 3 }) epoch!: number;
  @ApiProperty({ type: NodeAllocationSummaryDto, nullable: true }) allocation!: NodeAllocationSummaryDto | null;
  @ApiProperty({ type: NodeReservationDto, nullable: true }) reservation!: NodeReservationDto | null;
  @ApiProperty({ type: [NodeFaultDto], description: 'Automatic faults: they clear themselves (seed 4).' }) faults!: NodeFaultDto[];
  @ApiProperty({ ...OPEN_OBJECT, nullable: true, description: 'Operator maintenance, if on: who, why, since when.' }) maintenance!: Record<
    string,
    unknown
  > | null;
  @ApiProperty({ ...OPEN_OBJECT, nullable: true, description: 'Provider-side cleanup a release left pending.' }) pendingCleanup!: Record<
    string,
    unknown
  > | null;
  @ApiProperty({ example: EXAMPLE_TIME }) enlistedAt!: string;
}

export class NodeResponseDto extends NodeViewDto {
  @ApiPosition() position!: number;
}

export class NodeListResponseDto {
  @ApiProperty({ type: [NodeViewDto] }) nodes!: NodeViewDto[];
  @ApiPosition() position!: number;
}
