import { ApiProperty } from '@nestjs/swagger';
import { ApiCommandPosition, ApiPosition, EXAMPLE_TOKEN, TIME } from '../../openapi/api-shapes';

export class RegisterDeviceResponseDto {
  @ApiProperty({ example: 'node-7.3.d1' }) deviceId!: string;
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiProperty({ example: EXAMPLE_TOKEN }) token!: string;
  @ApiProperty({ example: 'juju-1-lxd-0' }) hostname!: string;
  @ApiProperty({ example: '52:54:00:12:34:56' }) mac!: string;
  @ApiCommandPosition() position!: number | null;
}

export class RemoveDeviceResponseDto {
  @ApiProperty({ example: 'node-7.3.d1' }) deviceId!: string;
  @ApiProperty({ example: 'removed' }) status!: string;
  @ApiCommandPosition() position!: number | null;
}

export class DeviceRemovalDto {
  @ApiProperty({ example: 'removed' }) reason!: string;
  @ApiProperty(TIME) at!: string;
}

export class DeviceResponseDto {
  @ApiProperty({ example: 'node-7.3.d1' }) deviceId!: string;
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiProperty({ description: 'The parent allocation.', example: EXAMPLE_TOKEN }) token!: string;
  @ApiProperty({ example: 3 }) epoch!: number;
  @ApiProperty({ example: 'juju-1-lxd-0' }) hostname!: string;
  @ApiProperty({ example: '52:54:00:12:34:56' }) mac!: string;
  @ApiProperty(TIME) registeredAt!: string;
  @ApiProperty({ type: DeviceRemovalDto, nullable: true }) removed!: DeviceRemovalDto | null;
  @ApiProperty({ description: 'Registered, not removed, and its allocation live.', example: true }) live!: boolean;
  @ApiPosition() position!: number;
}
