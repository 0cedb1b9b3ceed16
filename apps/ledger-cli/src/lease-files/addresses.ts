/**
 * One spelling per address, so the same lease read from two files (or from the ledger)
 * compares equal: IPv4 as a plain dotted quad, IPv6 as RFC 5952 text, MACs as
 * lowercase colon-separated octets.
 */
export interface ParsedIp {
  ip: string;
  family: 4 | 6;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

const ipv4Octets = (text: string): number[] | null => {
  const match = IPV4.exec(text);
  if (!match) return null;
  const octets = match.slice(1).map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
};

/** Eight 16-bit groups, or null. Accepts `::` and a dotted-quad tail; refuses zone ids. */
const ipv6Groups = (text: string): number[] | null => {
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || text.split('::').length > 2) return null;
  let body = text;
  const tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  if (body.includes('.')) {
    const v4 = ipv4Octets(body.slice(lastColon + 1));
    if (!v4) return null;
    tail.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    body = body.slice(0, lastColon + 1);
    if (body.endsWith(':') && !body.endsWith('::')) body = body.slice(0, -1);
  }
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const groups = part.split(':');
    if (groups.some((group) => !/^[0-9A-Fa-f]{1,4}$/.test(group))) return null;
    return groups.map((group) => parseInt(group, 16));
  };
  const wanted = 8 - tail.length;
  if (body.includes('::')) {
    const [head, rest] = body.split('::');
    const left = parse(head);
    const right = parse(rest);
    if (!left || !right || left.length + right.length >= wanted) return null;
    return [...left, ...new Array<number>(wanted - left.length - right.length).fill(0), ...right, ...tail];
  }
  const groups = parse(body);
  return groups && groups.length === wanted ? [...groups, ...tail] : null;
};

/** RFC 5952: lowercase, no leading zeros, the longest run (two or more) of zero groups as `::`, the first on a tie. */
const formatIpv6 = (groups: number[]): string => {
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `::ffff:${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  }
  let best = { start: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
};

export const parseIp = (text: string): ParsedIp | null => {
  const v4 = ipv4Octets(text);
  if (v4) return { ip: v4.join('.'), family: 4 };
  const v6 = ipv6Groups(text);
  return v6 ? { ip: formatIpv6(v6), family: 6 } : null;
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
  return parseInt(mac.slice(0, 2), 16) & 1 ? `${mac} is a multicast or broadcast MAC address` : null;
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
