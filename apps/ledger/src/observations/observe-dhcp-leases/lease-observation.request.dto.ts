import { ArrayMaxSize, IsArray, MinLength } from 'class-validator';
import { IsBoundedText } from '../../http/validators';
import type { LeaseObservationsInput } from './observe-dhcp-leases.handler';

export const MAX_LEASE_RECORDS_PER_REQUEST = 5_000;

/** A batch of DHCP server lease records; each record is checked by dhcp-lease-records.ts, naming `leases[i].field`. */
export class LeaseObservationsRequestDto implements LeaseObservationsInput {
  @IsBoundedText(128) @MinLength(1) source!: string;
  @IsArray() @ArrayMaxSize(MAX_LEASE_RECORDS_PER_REQUEST) leases!: unknown[];
}
