import { parseIp as parseLedgerIp } from '@ledger/domain';

/**
 * One spelling per address, so the same lease read from two files (or from the ledger)
 * compares equal: IPv4 as a plain dotted quad, IPv6 as RFC 5952 text, MACs as
 * lowercase colon-separated octets.
 */
export interface ParsedIp {
  ip: string;
  family: 4 | 6;
}

/** The ledger's own canonical spelling (libs/domain), so the CLI and the server never disagree on an address. */
export const parseIp = (text: string): ParsedIp | null => {
  const parsed = parseLedgerIp(text);
  return 'ip' in parsed ? { ip: parsed.ip, family: parsed.version } : null;
};

/**
 * Six octets separated by `:` or `-` (ISC's old writer left out leading zeros: `0:c:29:...`),
 * Cisco dotted `0011.2233.4455`, or twelve bare hex digits.
 */
export const normalizeMac = (text: string): string | null => {
  let octets: string[] | null = null;
  if (/^[0-9A-Fa-f]{1,2}([:-][0-9A-Fa-f]{1,2}){5}$/.test(text)) octets = text.split(/[:-]/).map((o) => o.padStart(2, '0'));
  else if (/^[0-9A-Fa-f]{4}(\.[0-9A-Fa-f]{4}){2}$/.test(text)) octets = text.replace(/\./g, '').match(/../g);
  else if (/^[0-9A-Fa-f]{12}$/.test(text)) octets = text.match(/../g);
  return octets ? octets.join(':').toLowerCase() : null;
};

/**
 * Why a well-spelled MAC cannot hold a lease, or null when it can: the all-zero address
 * and group (multicast, broadcast) addresses are no interface's own. The ledger refuses them.
 */
export const unusableMacReason = (mac: string): string | null => {
  if (mac === '00:00:00:00:00:00') return 'the all-zero MAC address';
  return parseInt(mac.slice(0, 2), 16) & 1 ? `a multicast or broadcast MAC address (${mac})` : null;
};

export const macFromBytes = (bytes: Uint8Array): string | null =>
  bytes.length === 6 ? Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(':') : null;

/** `00:03:00:01:...` (ISC and Kea both write binary ids so) into bytes, or null. */
export const bytesFromHexList = (text: string): Uint8Array | null => {
  if (!/^[0-9A-Fa-f]{1,2}(:[0-9A-Fa-f]{1,2})*$/.test(text)) return null;
  return Uint8Array.from(text.split(':').map((octet) => parseInt(octet, 16)));
};

/**
 * The MAC inside a DHCPv6 DUID, where there is one: DUID-LLT (type 1) and DUID-LL (type 3)
 * carry the link-layer address; for Ethernet (hardware type 1) that is the MAC.
 * DUID-EN (2) and DUID-UUID (4) carry none.
 */
export const macFromDuid = (duid: Uint8Array): string | null => {
  if (duid.length < 4) return null;
  const type = (duid[0] << 8) | duid[1];
  const hardwareType = (duid[2] << 8) | duid[3];
  if (hardwareType !== 1) return null;
  if (type === 1) return macFromBytes(duid.subarray(8));
  if (type === 3) return macFromBytes(duid.subarray(4));
  return null;
};

export const duidType = (duid: Uint8Array): number | null => (duid.length >= 2 ? (duid[0] << 8) | duid[1] : null);
