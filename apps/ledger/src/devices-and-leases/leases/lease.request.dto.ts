import { Type } from 'class-transformer';
import { IsIn, IsISO8601, IsObject, IsOptional, ValidateIf, ValidateNested } from 'class-validator';
import { IsBoundedText } from '../../http/validators';
import { IsIpAddress, IsMacAddress } from '../../http/address-validators';
import type { GrantLeaseInput, ReleaseLeaseInput, RenewLeaseInput } from './lease-commands.handlers';

export class LeaseOwnerDto {
  @IsOptional() @IsBoundedText(512) token?: string;
  @IsOptional() @IsBoundedText(512) deviceId?: string;
}

export class GrantLeaseRequestDto implements GrantLeaseInput {
  @IsIpAddress() ip!: string;
  @IsMacAddress() mac!: string;
  @IsObject() @ValidateNested() @Type(() => LeaseOwnerDto) owner!: LeaseOwnerDto;
  @IsIn(['dhcp', 'static']) kind!: 'dhcp' | 'static';
  /** Absent or null: no expiry (static leases, or a DHCP lease the server renews). */
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsISO8601({ strict: true }) expiresAt?: string | null;
}

export class RenewLeaseRequestDto implements RenewLeaseInput {
  @ValidateIf((_, value) => value !== null) @IsISO8601({ strict: true }) expiresAt!: string | null;
  @IsOptional() @IsBoundedText(128) leaseId?: string;
}

export class ReleaseLeaseRequestDto implements ReleaseLeaseInput {
  @IsOptional() @IsBoundedText(128) leaseId?: string;
}
