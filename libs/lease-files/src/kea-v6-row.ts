import { bytesFromHexList, macFromDuid } from './addresses';
import { quoteText } from './quote-text';

/**
 * What a row of Kea's DHCPv6 memfile (kea-leases6.csv, written by CSVLeaseFile6) says beyond
 * the columns it shares with the DHCPv4 file. Kea 2.2 writes `address, duid, valid_lifetime,
 * expire, subnet_id, pref_lifetime, lease_type, iaid, prefix_len, fqdn_fwd, fqdn_rev, hostname,
 * hwaddr, state, user_context, hwtype, hwaddr_source` (later versions append `pool_id`); the
 * shared columns are read by KeaLeaseParser, these two questions here.
 */

/** A DHCPv6 binding of a client Kea knows no MAC for: no device can be matched to it, yet the file is not broken. */
export const KEA_V6_WITHOUT_MAC = 'DHCPv6 binding without a MAC (no hwaddr, and a DUID that carries none)';

/**
 * Kea's Lease::Type in the lease_type column. Only IA_NA (0) leases an address to an
 * interface, and so to a container; a delegated prefix (IA_PD, 2) is a route to a router,
 * no device's address, and a temporary address (IA_TA, 1, which Kea does not hand out) is
 * no lasting binding. Those are left out, counted by why; a temporary address still names
 * its address, so what an earlier row said about that address no longer holds.
 */
export const keaV6LeaseType = (text: string | undefined): 'address' | { ignore: string; namesAddress: boolean } | { error: string } => {
  // A header without the column (a hand-made file) holds addresses only.
  if (text === undefined || text === '0') return 'address';
  if (text === '1') return { ignore: 'DHCPv6 temporary address (IA_TA, lease_type 1)', namesAddress: true };
  if (text === '2') return { ignore: 'DHCPv6 prefix delegation (IA_PD, lease_type 2)', namesAddress: false };
  return { error: `lease_type '${quoteText(text)}' is not a Kea lease type (0 IA_NA, 1 IA_TA, 2 IA_PD)` };
};

/**
 * The MAC inside the client's DUID, for a row whose hwaddr column is empty. Kea fills that
 * column when it learns the client's hardware address (from a link-layer DUID, a relay's
 * client link-layer option, or the EUI-64 of the client's link-local source address);
 * undefined when neither says (a DUID-EN or DUID-UUID client behind nothing that tells).
 */
export const keaV6DuidMac = (duid: string): string | undefined => {
  const bytes = bytesFromHexList(duid);
  return bytes ? (macFromDuid(bytes) ?? undefined) : undefined;
};
