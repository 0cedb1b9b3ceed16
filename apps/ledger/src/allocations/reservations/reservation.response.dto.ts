import { ApiProperty } from '@nestjs/swagger';
import { ApiCommandPosition, TIME } from '../../openapi/api-shapes';

export class ReserveNodeResponseDto {
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiProperty({ example: 'rsv-0194a7c2' }) reservationId!: string;
  @ApiProperty({ description: 'The secret that acquires or cancels the reservation; shown once.', example: 'rk_5Jq0cV2x9L' }) reservationKey!: string;
  @ApiProperty(TIME) expiresAt!: string;
  @ApiCommandPosition() position!: number | null;
}

export class CancelReservationResponseDto {
  @ApiProperty({ example: 'node-7' }) nodeId!: string;
  @ApiProperty({ example: 'rsv-0194a7c2' }) reservationId!: string;
  @ApiCommandPosition() position!: number | null;
}
