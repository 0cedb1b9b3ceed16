import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, MinLength } from 'class-validator';
import { DHCP_BINDING_STATES } from '@ledger/domain';
import { IsBoundedText } from '../../http/validators';
import { DATE_TIME_REQUEST, IP_SCHEMA, MAC_SCHEMA } from '../../http/value-formats';
import { MAX_OBSERVED_HOSTNAME_LENGTH } from './dhcp-lease-records';
import type { LeaseObservationsInput } from './observe-dhcp-leases.handler';

export const MAX_LEASE_RECORDS_PER_REQUEST = 5_000;

/** A batch of DHCP server lease records; each record is checked by dhcp-lease-records.ts, naming `leases[i].field`. */
export class LeaseObservationsRequestDto implements LeaseObservationsInput {
  @ApiProperty({ description: 'The DHCP server the records come from.', minLength: 1, maxLength: 128, example: 'isc:dhcpd.leases' })
  @IsBoundedText(128)
  @MinLength(1)
  source!: string;
  @ApiProperty({
    type: 'array',
    maxItems: MAX_LEASE_RECORDS_PER_REQUEST,
    description: 'DHCP lease records, as the server wrote them.',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['ip', 'mac', 'state'],
      properties: {
        ip: IP_SCHEMA,
        mac: MAC_SCHEMA,
        state: { type: 'string', enum: [...DHCP_BINDING_STATES] },
        starts: { ...DATE_TIME_REQUEST, nullable: true },
        ends: { ...DATE_TIME_REQUEST, nullable: true, description: 'null or absent: no end.' },
        hostname: {
          type: 'string',
          nullable: true,
          maxLength: MAX_OBSERVED_HOSTNAME_LENGTH,
          description: 'What the client called itself: an observation, recorded as sent (any text), always shown escaped.',
        },
      },
    },
    example: [{ ip: '10.0.0.17', mac: '52:54:00:12:34:56', state: 'active', ends: '2025-01-01T13:00:00Z' }],
  })
  @IsArray()
  @ArrayMaxSize(MAX_LEASE_RECORDS_PER_REQUEST)
  leases!: unknown[];
  @ApiPropertyOptional({
    type: Boolean,
    description:
      "true: the source follows the server's lease database and reports every change (the DHCP agent). Its bindings then hold until it reports their end, and a renewal (the same MAC, state and hostname, a later end) appends nothing. false: a snapshot (ledger-cli import); a binding holds until its `ends`.",
  })
  @IsOptional()
  @IsBoolean()
  following?: boolean;
}
