import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { NODE_STATUSES } from '@ledger/projections';
import { ConsumerViewDto } from '../http/consumer.dto';
import { MaintenanceDto } from './maintenance/maintenance.response.dto';
import { ApiCommandPosition, ApiPosition, EXAMPLE_TOKEN, OPEN_OBJECT, TIME } from '../openapi/api-shapes';

export class EnlistNodeResponseDto {
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiCommandPosition() position!: number | null;
}

export class NodeAllocationSummaryDto {
  @ApiProperty({ example: EXAMPLE_TOKEN }) token!: string;
  @ApiProperty({ example: 3 }) epoch!: number;
  @ApiProperty({ type: ConsumerViewDto }) consumer!: ConsumerViewDto;
  @ApiProperty({ example: 'deployed' }) status!: string;
  @ApiProperty(TIME) acquiredAt!: string;
}

/** Another controller's allocation, as a consumer key sees it: the node is taken, and nothing more. */
export class ForeignAllocationDto {
  @ApiProperty({ enum: [true], description: "Another controller's allocation: its token, consumer, epoch and time are not shown.", example: true })
  foreign!: true;
  @ApiProperty({ example: 'deployed' }) status!: string;
}

export class NodeReservationDto {
  @ApiProperty({ example: 'rsv-1' }) reservationId!: string;
  @ApiProperty({ example: 'autopilot' }) agentName!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) owner!: string | null;
  @ApiProperty(TIME) expiresAt!: string;
}

export class NodeFaultDto {
  @ApiProperty({ example: 'power_failure' }) name!: string;
  @ApiProperty(TIME) since!: string;
  @ApiProperty({ type: String, nullable: true, example: 'BMC timeout' }) lastError!: string | null;
  @ApiPropertyOptional({
    example: EXAMPLE_TOKEN,
    description: "The allocation a deploy_timeout is about; left out for a consumer key when it is another controller's.",
  })
  token?: string;
}

@ApiExtraModels(NodeAllocationSummaryDto, ForeignAllocationDto)
export class NodeViewDto {
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiProperty({ example: 'node-7.maas' }) hostname!: string;
  @ApiProperty({ example: 'amd64' }) arch!: string;
  @ApiProperty({ example: 8 }) cpuCount!: number;
  @ApiProperty({ example: 16384 }) memoryMb!: number;
  @ApiProperty({ type: [String], example: ['gpu'] }) tags!: string[];
  @ApiProperty({ example: 'default' }) zone!: string;
  @ApiProperty({ type: String, nullable: true, description: "The provider's resource pool; null when the enlistment named none.", example: 'default' })
  pool!: string | null;
  @ApiProperty({ enum: NODE_STATUSES, example: 'ready' }) status!: string;
  @ApiProperty({ description: 'Allocations this node has had.', example: 3 }) epoch!: number;
  @ApiProperty({
    nullable: true,
    oneOf: [{ $ref: getSchemaPath(NodeAllocationSummaryDto) }, { $ref: getSchemaPath(ForeignAllocationDto) }],
    description:
      "The live allocation, or null; to a consumer key, another controller's (or another model's, for a key scoped to models) is only `{foreign: true, status}`.",
  })
  allocation!: NodeAllocationSummaryDto | ForeignAllocationDto | null;
  @ApiProperty({ type: NodeReservationDto, nullable: true }) reservation!: NodeReservationDto | null;
  @ApiProperty({ type: [NodeFaultDto], description: 'Automatic faults: they clear themselves (seed 4).' }) faults!: NodeFaultDto[];
  @ApiProperty({ type: MaintenanceDto, nullable: true, description: 'Operator maintenance, if on: who, why, since when.' }) maintenance!: MaintenanceDto | null;
  @ApiProperty({
    ...OPEN_OBJECT,
    nullable: true,
    description: "Provider-side cleanup a release left pending; its token is left out for a consumer key when it is another controller's.",
  })
  pendingCleanup!: Record<string, unknown> | null;
  @ApiProperty(TIME) enlistedAt!: string;
}

export class NodeResponseDto extends NodeViewDto {
  @ApiPosition() position!: number;
}

export class NodeListResponseDto {
  @ApiProperty({ type: [NodeViewDto] }) nodes!: NodeViewDto[];
  @ApiPosition() position!: number;
}
