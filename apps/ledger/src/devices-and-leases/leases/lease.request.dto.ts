import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, ValidateIf, ValidateNested } from 'class-validator';
import { IsBoundedText, IsIsoTime } from '../../http/validators';
import { IsIpAddress, IsMacAddress } from '../../http/address-validators';
import type { GrantLeaseInput, ReleaseLeaseInput, RenewLeaseInput } from './lease-commands.handlers';

export class LeaseOwnerDto {
  @ApiPropertyOptional({ description: 'An allocation owns the lease (give token or deviceId).', example: 'node-7.3.k3v9QbX2mT0aLw' })
  @IsOptional()
  @IsBoundedText(512)
  token?: string;
  @ApiPropertyOptional({ description: 'A device owns the lease.', example: 'node-7.3.d1' })
  @IsOptional()
  @IsBoundedText(512)
  deviceId?: string;
}

export class GrantLeaseRequestDto implements GrantLeaseInput {
  @ApiProperty({ description: 'IPv4 or IPv6.', example: '10.0.0.17' })
  @IsIpAddress()
  ip!: string;
  @ApiProperty({ example: '52:54:00:12:34:56' })
  @IsMacAddress()
  mac!: string;
  @ApiProperty({ type: LeaseOwnerDto })
  @IsObject()
  @ValidateNested()
  @Type(() => LeaseOwnerDto)
  owner!: LeaseOwnerDto;
  @ApiProperty({ enum: ['dhcp', 'static'], example: 'dhcp' })
  @IsIn(['dhcp', 'static'])
  kind!: 'dhcp' | 'static';
  /** Absent or null: no expiry (static leases, or a DHCP lease the server renews). */
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'Absent or null: no expiry.', example: '2025-01-01T12:00:00Z' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsIsoTime()
  expiresAt?: string | null;
}

export class RenewLeaseRequestDto implements RenewLeaseInput {
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2025-01-01T12:00:00Z' })
  @ValidateIf((_, value) => value !== null)
  @IsIsoTime()
  expiresAt!: string | null;
  @ApiPropertyOptional({ description: 'Renew only if this is still the active lease.', example: '10.0.0.17#4' })
  @IsOptional()
  @IsBoundedText(128)
  leaseId?: string;
}

export class ReleaseLeaseRequestDto implements ReleaseLeaseInput {
  @ApiPropertyOptional({ description: 'Release only if this is still the active lease.', example: '10.0.0.17#4' })
  @IsOptional()
  @IsBoundedText(128)
  leaseId?: string;
}
