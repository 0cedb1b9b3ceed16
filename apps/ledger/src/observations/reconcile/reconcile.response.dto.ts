import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiPosition, EXAMPLE_TOKEN } from '../../openapi/api-shapes';

/** The model reconciled. */
export class ReconcileConsumerDto {
  @ApiProperty({ example: 'juju-1' }) controller!: string;
  @ApiProperty({ example: 'prod' }) model!: string;
}

export class InstanceVerdictDto {
  @ApiProperty({ example: '0' }) machine!: string;
  @ApiProperty({ type: String, nullable: true, example: EXAMPLE_TOKEN }) token!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'node-7' }) nodeId!: string | null;
  @ApiProperty({ enum: ['valid', 'stale', 'duplicate', 'foreign', 'unknown'], example: 'stale' }) verdict!: string;
  @ApiProperty({
    description: 'What the consumer should do, safely.',
    example: 'forget this machine (remove it keeping the instance); do not release, stop or touch the node',
  })
  action!: string;
  @ApiProperty({ example: 'the token was revoked' }) reason!: string;
}

export class IpVerdictDto {
  @ApiProperty({ example: '10.0.0.17' }) ip!: string;
  @ApiProperty({ enum: ['valid', 'orphaned', 'foreign', 'unknown'], example: 'valid' }) verdict!: string;
  @ApiProperty({ example: 'keep' }) action!: string;
  @ApiProperty({ example: 'leased to a live allocation of this model' }) reason!: string;
  @ApiProperty({ type: String, nullable: true, example: '10.0.0.17#4' }) leaseId!: string | null;
  @ApiPropertyOptional({ example: EXAMPLE_TOKEN }) token?: string;
  @ApiPropertyOptional({ example: 'node-7.3.d1' }) deviceId?: string;
}

export class ReconcileResponseDto {
  @ApiProperty({ type: ReconcileConsumerDto }) consumer!: ReconcileConsumerDto;
  @ApiProperty({ type: [InstanceVerdictDto] }) instances!: InstanceVerdictDto[];
  @ApiPropertyOptional({ type: [IpVerdictDto], description: 'Only when the request listed ips.' }) ips?: IpVerdictDto[];
  @ApiPosition() position!: number;
}
