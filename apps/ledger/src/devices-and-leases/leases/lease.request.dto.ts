import { Type } from 'class-transformer';
import { IsIn, IsISO8601, IsObject, IsOptional, ValidateIf, ValidateNested } from 'class-validator';
import { IsBoundedText } from '../../http/validators';
import { IsIpAddress, IsMacAddress } from '../../http/address-validators';

export class LeaseOwnerDto {
  @IsOptional() @IsBoundedText(512) token?: string;
  @IsOptional() @IsBoundedText(512) deviceId?: string;
}

export class GrantLeaseRequestDto {
  @IsIpAddress() ip!: string;
  @IsMacAddress() mac!: string;
  @IsObject() @ValidateNested() @Type(() => LeaseOwnerDto) owner!: LeaseOwnerDto;
  @IsIn(['dhcp', 'static']) kind!: 'dhcp' | 'static';
  /** Absent or null: no expiry (static leases, or a DHCP lease the server renews). */
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsISO8601({ strict: true }) expiresAt?: string | null;
}

export class RenewLeaseRequestDto {
  @ValidateIf((_, value) => value !== null) @IsISO8601({ strict: true }) expiresAt!: string | null;
  @IsOptional() @IsBoundedText(128) leaseId?: string;
}

export class ReleaseLeaseRequestDto {
  @IsOptional() @IsBoundedText(128) leaseId?: string;
}
