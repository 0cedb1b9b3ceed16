import type { DhcpBindingState } from './lease-events';

/** What a DHCP server says about one address: the one shape commands, events and views share. */
export interface DhcpRecord {
  source: string;
  mac: string;
  state: DhcpBindingState;
  starts: string | null;
  ends: string | null;
  hostname: string | null;
}
