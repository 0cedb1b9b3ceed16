import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ConsumerViewDto } from '../http/consumer.dto';
import { ApiPosition, EXAMPLE_TOKEN, TIME } from '../openapi/api-shapes';
import { OWNER_DATA_SCHEMA } from './owner-data/owner-data.response.dto';

export class DeploymentFailureDto {
  @ApiProperty({ example: 'curtin failed' }) reason!: string;
  @ApiProperty({ example: 'maas' }) source!: string;
  @ApiProperty(TIME) at!: string;
}

export class AllocationEndingDto {
  @ApiProperty({ enum: ['released', 'force_released', 'model_released', 'revoked'], example: 'released' }) kind!: string;
  @ApiProperty(TIME) at!: string;
  @ApiPropertyOptional({ example: 'Ready' }) providerStatus?: string;
  @ApiPropertyOptional({ example: 'maas' }) source?: string;
}

export class AllocationDeviceDto {
  @ApiProperty({ example: 'bm9kZS03.3.d1' }) deviceId!: string;
  @ApiProperty({ example: 'juju-1-lxd-0' }) hostname!: string;
  @ApiProperty({ example: '52:54:00:12:34:56' }) mac!: string;
  @ApiProperty({ description: 'Registered, not removed, and its allocation live.', example: true }) live!: boolean;
}

export class AllocationResponseDto {
  @ApiProperty({ example: EXAMPLE_TOKEN }) token!: string;
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiProperty({ example: 3 }) epoch!: number;
  @ApiProperty({ type: ConsumerViewDto }) consumer!: ConsumerViewDto;
  @ApiProperty({ description: 'Deployment status while live; how it ended afterwards.', example: 'deployed' }) status!: string;
  @ApiProperty({ example: true }) live!: boolean;
  @ApiProperty({ description: "Whether this is the node's current allocation (fencing).", example: true }) current!: boolean;
  @ApiProperty(TIME) acquiredAt!: string;
  @ApiProperty({ type: String, nullable: true, example: null }) reservationId!: string | null;
  @ApiProperty({ type: [DeploymentFailureDto] }) deploymentFailures!: DeploymentFailureDto[];
  @ApiProperty({ type: AllocationEndingDto, nullable: true }) ending!: AllocationEndingDto | null;
  @ApiProperty({ ...OWNER_DATA_SCHEMA, description: "The holder's owner data (POST .../owner-data), as it last set it; kept after the allocation ended." })
  ownerData!: Record<string, string>;
  @ApiProperty({ type: [AllocationDeviceDto], description: 'The containers and VMs registered under it, in registration order.' })
  devices!: AllocationDeviceDto[];
  @ApiPosition() position!: number;
}

export class ReleasedAllocationDto {
  @ApiProperty({ example: EXAMPLE_TOKEN }) token!: string;
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiPropertyOptional({ type: [String] }) pendingCleanup?: string[];
}

export class AlreadyEndedAllocationDto {
  @ApiProperty({ example: EXAMPLE_TOKEN }) token!: string;
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiProperty({ description: 'Why it was not released here (it ended concurrently).', example: 'stale_token' }) code!: string;
}

export class ModelReleaseResponseDto {
  @ApiProperty({ example: 'juju-1' }) controller!: string;
  @ApiProperty({ example: 'prod' }) model!: string;
  @ApiProperty({ type: [ReleasedAllocationDto] }) released!: ReleasedAllocationDto[];
  @ApiProperty({ type: [AlreadyEndedAllocationDto] }) alreadyEnded!: AlreadyEndedAllocationDto[];
  @ApiProperty({ type: Number, nullable: true, description: 'Position of the last release (null: nothing was live).', example: 42 }) position!: number | null;
}
