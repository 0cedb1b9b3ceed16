import { ApiProperty } from '@nestjs/swagger';
import { MinLength } from 'class-validator';
import { IsBoundedText } from '../../http/validators';
import { IsMacAddress } from '../../http/address-validators';
import { MAC_SCHEMA } from '../../http/value-formats';
import type { DhcpReclaimInput } from './record-dhcp-reclaim.handler';

export class DhcpReclaimRequestDto implements DhcpReclaimInput {
  @ApiProperty({
    description: 'The DHCP server whose binding was deleted: the `source` its agent posts lease records as.',
    minLength: 1,
    maxLength: 128,
    example: 'kea:kea-leases4.csv',
  })
  @IsBoundedText(128)
  @MinLength(1)
  source!: string;
  @ApiProperty({
    description: 'The ended ledger lease whose binding the server still held (as GET /v1/leases?status=orphaned lists it).',
    maxLength: 128,
    example: '3@10.0.0.17',
  })
  @IsBoundedText(128)
  @MinLength(1)
  leaseId!: string;
  @ApiProperty({ ...MAC_SCHEMA, description: 'The MAC the server held the address for when its binding was deleted.' })
  @IsMacAddress()
  mac!: string;
}
