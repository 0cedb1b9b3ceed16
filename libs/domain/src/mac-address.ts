/**
 * MAC addresses (EUI-48) as the ledger stores them: lowercase, colon-separated
 * (`2c:59:e5:3b:a1:e4`), whatever spelling a DHCP server or a consumer used:
 * `2C-59-E5-3B-A1-E4`, `2c59.e53b.a1e4`, `2c59e53ba1e4`.
 * Refused: the all-zero address and group (multicast, broadcast) addresses, which
 * no network interface holding a lease ever has.
 */
export type ParsedMac = { mac: string } | { error: string };

const SPELLINGS = [
  /^([0-9a-f]{2})[:-]([0-9a-f]{2})[:-]([0-9a-f]{2})[:-]([0-9a-f]{2})[:-]([0-9a-f]{2})[:-]([0-9a-f]{2})$/,
  /^([0-9a-f]{2})([0-9a-f]{2})\.([0-9a-f]{2})([0-9a-f]{2})\.([0-9a-f]{2})([0-9a-f]{2})$/,
  /^([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/,
];

export const parseMac = (raw: string): ParsedMac => {
  if (typeof raw !== 'string' || raw.length > 17) return { error: 'must be a MAC address such as 2c:59:e5:3b:a1:e4' };
  const text = raw.toLowerCase();
  // One separator throughout: "2c:59-e5..." is a typo, not an address.
  if (text.includes(':') && text.includes('-')) return { error: 'must be a MAC address such as 2c:59:e5:3b:a1:e4' };
  const match = SPELLINGS.map((spelling) => spelling.exec(text)).find((m) => m !== null);
  if (!match) return { error: 'must be a MAC address such as 2c:59:e5:3b:a1:e4' };
  const octets = match.slice(1, 7);
  if (octets.every((octet) => octet === '00')) return { error: 'must not be the all-zero MAC address' };
  if (parseInt(octets[0], 16) & 1) return { error: 'must be a unicast MAC address (this one is multicast or broadcast)' };
  return { mac: octets.join(':') };
};

/** The canonical form of a MAC address, or null if it is not one. */
export const normaliseMac = (raw: string): string | null => {
  const parsed = parseMac(raw);
  return 'mac' in parsed ? parsed.mac : null;
};
