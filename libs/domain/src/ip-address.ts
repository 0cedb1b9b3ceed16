import { isIP } from 'node:net';

/**
 * IP addresses as the ledger stores them: one spelling per address, so `ip-{ip}`
 * streams never split one address in two.
 * - IPv4: dotted quad without leading zeros. Octets written with leading zeros
 *   ("010.096.014.034") are read as decimal, as DHCP servers and MAAS write them,
 *   never as octal.
 * - IPv6: RFC 5952: lowercase, no leading zeros in a group, the longest run of two or
 *   more zero groups (the first on a tie) written `::`; IPv4-mapped addresses keep
 *   their dotted tail (`::ffff:10.0.0.1`). Zone indexes (`%eth0`) are refused: they
 *   name an interface of one host, not an address anyone can lease.
 */
export type IpVersion = 4 | 6;

export type ParsedIp = { ip: string; version: IpVersion } | { error: string };

const DOTTED_QUAD = /^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$/;

const normaliseIpv4 = (raw: string): string | null => {
  const match = DOTTED_QUAD.exec(raw);
  if (!match) return null;
  const octets = match.slice(1).map(Number);
  if (octets.some((octet) => octet > 255)) return null;
  const ip = octets.join('.');
  return isIP(ip) === 4 ? ip : null;
};

/** The eight 16-bit groups of a valid IPv6 address (node:net has already said it is one). */
const groupsOf = (raw: string): number[] => {
  let text = raw.toLowerCase();
  const tail: number[] = [];
  const dotted = /^(.*:)([0-9.]+)$/.exec(text);
  if (dotted && dotted[2].includes('.')) {
    const [a, b, c, d] = dotted[2].split('.').map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    text = dotted[1].endsWith('::') ? dotted[1] : dotted[1].slice(0, -1);
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, null];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(head);
  const right = rest === null ? [] : parse(rest);
  const missing = 8 - left.length - right.length - tail.length;
  return [...left, ...new Array<number>(rest === null ? 0 : missing).fill(0), ...right, ...tail];
};

const isIpv4Mapped = (groups: number[]): boolean => groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;

const formatIpv6 = (groups: number[]): string => {
  if (isIpv4Mapped(groups)) {
    return `::ffff:${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
  }
  // The longest run of zero groups (at least two), the first one on a tie.
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8;) {
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
  if (best.length < 2) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
};

export const parseIp = (raw: string): ParsedIp => {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 64) return { error: 'must be an IPv4 or IPv6 address' };
  if (raw.includes('%')) return { error: 'must be an address without a zone index (%...)' };
  const v4 = normaliseIpv4(raw);
  if (v4) return { ip: v4, version: 4 };
  if (isIP(raw) === 6) return { ip: formatIpv6(groupsOf(raw)), version: 6 };
  return { error: 'must be an IPv4 or IPv6 address' };
};

/** The canonical form of an IP address, or null if it is not one. */
export const normaliseIp = (raw: string): string | null => {
  const parsed = parseIp(raw);
  return 'ip' in parsed ? parsed.ip : null;
};
