import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, ValidateIf, ValidateNested } from 'class-validator';
import { IsBoundedText, IsIsoTime } from '../../http/validators';
import { IsIpAddress, IsMacAddress } from '../../http/address-validators';
import { DATE_TIME_REQUEST, IP_SCHEMA, MAC_SCHEMA } from '../../http/value-formats';
import type { GrantLeaseInput, ReleaseLeaseInput, RenewLeaseInput } from './lease-commands.handlers';

export class LeaseOwnerDto {
  @ApiPropertyOptional({
    description: 'An allocation owns the lease (give exactly one of token and deviceId).',
    maxLength: 512,
    example: 'node-7.3.k3v9QbX2mT0aLw',
  })
  @IsOptional()
  @IsBoundedText(512)
  token?: string;
  @ApiPropertyOptional({ description: 'A device owns the lease.', maxLength: 512, example: 'node-7.3.d1' })
  @IsOptional()
  @IsBoundedText(512)
  deviceId?: string;
}

export class GrantLeaseRequestDto implements GrantLeaseInput {
  @ApiProperty(IP_SCHEMA)
  @IsIpAddress()
  ip!: string;
  @ApiProperty(MAC_SCHEMA)
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
  @ApiPropertyOptional({ ...DATE_TIME_REQUEST, nullable: true, description: 'Absent or null: no expiry. Must be in the future.' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsIsoTime()
  expiresAt?: string | null;
}

export class RenewLeaseRequestDto implements RenewLeaseInput {
  @ApiProperty({ ...DATE_TIME_REQUEST, nullable: true, description: 'null: no expiry. Must be in the future.' })
  @ValidateIf((_, value) => value !== null)
  @IsIsoTime()
  expiresAt!: string | null;
  @ApiPropertyOptional({ description: 'Renew only if this is still the active lease.', maxLength: 128, example: '10.0.0.17#4' })
  @IsOptional()
  @IsBoundedText(128)
  leaseId?: string;
}

export class ReleaseLeaseRequestDto implements ReleaseLeaseInput {
  @ApiPropertyOptional({ description: 'Release only if this is still the active lease.', maxLength: 128, example: '10.0.0.17#4' })
  @IsOptional()
  @IsBoundedText(128)
  leaseId?: string;
}
