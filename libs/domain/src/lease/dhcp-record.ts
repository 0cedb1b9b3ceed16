import type { DhcpBindingState } from './lease-events';

/** What a DHCP server says about one address: the one shape commands, events and views share. */
export interface DhcpRecord {
  source: string;
  mac: string;
  state: DhcpBindingState;
  starts: string | null;
  ends: string | null;
  hostname: string | null;
  /**
   * Set when the source follows the server's lease database and reports every change
   * (the DHCP agent): its binding then holds until the source reports its end, and a
   * renewal (the same MAC, state and hostname, a later end) is not recorded.
   */
  following?: true;
}
