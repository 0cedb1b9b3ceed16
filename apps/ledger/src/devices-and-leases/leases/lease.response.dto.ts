import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LEASE_STATUSES } from '@ledger/projections';
import { ApiCommandPosition, ApiPosition, OPEN_OBJECT, TIME } from '../../openapi/api-shapes';

export class LeaseCommandResponseDto {
  @ApiProperty({ example: '10.0.0.17' }) ip!: string;
  @ApiProperty({ type: String, nullable: true, example: '10.0.0.17#4' }) leaseId!: string | null;
  @ApiProperty({ example: 'granted' }) status!: string;
  @ApiPropertyOptional({ ...TIME, nullable: true }) expiresAt?: string | null;
  @ApiPropertyOptional({ description: 'A lease this grant closed because its owner had ended.', example: '10.0.0.17#3' }) superseded?: string;
  @ApiCommandPosition() position!: number | null;
}

export class LeaseDto {
  @ApiProperty({ example: '10.0.0.17' }) ip!: string;
  @ApiProperty({ type: String, nullable: true, description: 'null: an address a DHCP server holds that the ledger never leased.', example: '10.0.0.17#4' })
  leaseId!: string | null;
  @ApiProperty({ example: '52:54:00:12:34:56' }) mac!: string;
  @ApiPropertyOptional({ enum: ['dhcp', 'static'], example: 'dhcp' }) kind?: string;
  @ApiProperty({ enum: LEASE_STATUSES, example: 'valid' }) status!: string;
  @ApiProperty({
    ...OPEN_OBJECT,
    nullable: true,
    description: 'The allocation (token) or device (deviceId) that owns it.',
    example: { kind: 'allocation', token: 'node-7.3.k3v9QbX2mT0aLw', nodeId: 'node-7' },
  })
  owner!: Record<string, unknown> | null;
  @ApiPropertyOptional({ ...TIME, nullable: true }) expiresAt?: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 256,
    description:
      'The DHCP server (its `source`) whose binding this lease was learned from: the device registered with the bound MAC became its owner. null: granted through POST /v1/leases. A learned lease with no expiresAt ends when its server reports the end.',
    example: 'kea:kea-leases4.csv',
  })
  learnedFrom?: string | null;
  @ApiPropertyOptional(TIME) grantedAt?: string;
  @ApiPropertyOptional({ ...TIME, nullable: true, example: null }) renewedAt?: string | null;
  @ApiPropertyOptional({ ...OPEN_OBJECT, nullable: true, description: 'How it ended: released or expired, why, when.' }) ended?: Record<string, unknown> | null;
  @ApiPropertyOptional({ ...OPEN_OBJECT, description: 'For an address the ledger never leased: what the DHCP server said.' }) dhcp?: Record<string, unknown>;
}

export class LeaseListResponseDto {
  @ApiProperty({ type: [LeaseDto] }) leases!: LeaseDto[];
  @ApiPosition() position!: number;
}

export class DhcpHoldingDto {
  @ApiProperty({ ...OPEN_OBJECT, nullable: true, description: 'The DHCP server binding that holds the address now, if any.' }) heldBy!: Record<
    string,
    unknown
  > | null;
  @ApiProperty({ type: 'array', items: OPEN_OBJECT, description: 'The last thing each DHCP server said about the address.' }) observations!: Record<
    string,
    unknown
  >[];
}

export class IpResponseDto {
  @ApiProperty({ example: '10.0.0.17' }) ip!: string;
  @ApiProperty({ example: 'valid' }) status!: string;
  @ApiProperty({ type: LeaseDto, nullable: true }) current!: LeaseDto | null;
  @ApiProperty({ type: [LeaseDto], description: 'Every lease of the address, newest first.' }) history!: LeaseDto[];
  @ApiProperty({ type: DhcpHoldingDto }) dhcp!: DhcpHoldingDto;
  @ApiPosition() position!: number;
}
