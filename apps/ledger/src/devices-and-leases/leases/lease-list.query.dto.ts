import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { LEASE_STATUSES, type LeaseStatus } from '@ledger/projections';
import { MinPositionQueryDto } from '../../http/min-position.query.dto';
import { IsQueryText } from '../../http/query-validators';
import { IsIpAddress, IsMacAddress } from '../../http/address-validators';
import { IP_SCHEMA, MAC_SCHEMA } from '../../http/value-formats';

const text = (max: number) => new RegExp(`^[^\\u0000-\\u001f]{1,${max}}$`);

export class LeaseListQueryDto extends MinPositionQueryDto {
  @ApiPropertyOptional({ enum: LEASE_STATUSES, example: 'orphaned' })
  @IsOptional()
  @IsIn(LEASE_STATUSES, { message: `status must be one of ${LEASE_STATUSES.join(', ')}` })
  status?: LeaseStatus;

  @ApiPropertyOptional(IP_SCHEMA)
  @IsOptional()
  @IsQueryText(/^[0-9A-Fa-f.:]{2,64}$/, 'an IPv4 or IPv6 address')
  @IsIpAddress()
  ip?: string;

  @ApiPropertyOptional({ description: 'Leases owned by this allocation or its devices.', pattern: text(512).source, example: 'node-7.3.k3v9QbX2mT0aLw' })
  @IsOptional()
  @IsQueryText(text(512), '1-512 characters')
  token?: string;

  @ApiPropertyOptional({ pattern: text(128).source, example: 'node-7' })
  @IsOptional()
  @IsQueryText(text(128), '1-128 characters')
  nodeId?: string;

  @ApiPropertyOptional({ pattern: text(512).source, example: 'node-7.3.d1' })
  @IsOptional()
  @IsQueryText(text(512), '1-512 characters')
  deviceId?: string;

  @ApiPropertyOptional({ pattern: text(128).source, example: 'juju-1' })
  @IsOptional()
  @IsQueryText(text(128), '1-128 characters')
  controller?: string;

  @ApiPropertyOptional({ pattern: text(128).source, example: 'prod' })
  @IsOptional()
  @IsQueryText(text(128), '1-128 characters')
  model?: string;

  @ApiPropertyOptional({ ...MAC_SCHEMA, description: 'Leases of the device with this MAC address (any spelling; compared canonically).' })
  @IsOptional()
  @IsQueryText(/^[0-9A-Fa-f.:-]{1,64}$/, 'a MAC address (00:16:3e:00:00:01)')
  @IsMacAddress()
  mac?: string;
}
