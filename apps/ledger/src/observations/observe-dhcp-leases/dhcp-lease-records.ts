import { IS_ISO_TIME_PROBLEM } from '../../http/validators';
import { DHCP_BINDING_STATES, parseIp, parseMac, parseRfc3339Time, type DhcpBindingState } from '@ledger/domain';
import { InvalidInput } from '../../application/invalid-input';

/** One DHCP lease record, validated and normalised. */
export interface DhcpLeaseRecord {
  ip: string;
  mac: string;
  state: DhcpBindingState;
  starts: string | null;
  ends: string | null;
  hostname: string | null;
}

const FIELDS = new Set(['ip', 'mac', 'state', 'starts', 'ends', 'hostname']);
/**
 * What a DHCP client called itself: an observation, recorded as sent (no host-name rule:
 * clients send what they like), only bounded; whoever shows it escapes it.
 */
export const MAX_OBSERVED_HOSTNAME_LENGTH = 253;
const MAX_PROBLEMS_SHOWN = 20;

type Problem = { field: string; problems: string[] };

const instant = (value: unknown): { at: string | null } | { error: string } => {
  if (value === undefined || value === null) return { at: null };
  const at = parseRfc3339Time(value);
  return at ? { at: at.toISOString() } : { error: `${IS_ISO_TIME_PROBLEM}, or null` };
};

const parseRecord = (raw: unknown, field: string, problems: Problem[]): DhcpLeaseRecord | null => {
  const report = (name: string, problem: string) => problems.push({ field: `${field}.${name}`, problems: [problem] });
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push({ field, problems: ['must be an object'] });
    return null;
  }
  const record = raw as Record<string, unknown>;
  const before = problems.length;
  for (const key of Object.keys(record)) if (!FIELDS.has(key)) report(key, 'is not allowed');
  const missing = ['ip', 'mac', 'state'].filter((name) => record[name] === undefined);
  for (const name of missing) report(name, 'is required');
  if (missing.length > 0) return null;
  const ip = typeof record.ip === 'string' ? parseIp(record.ip) : { error: 'must be an IPv4 or IPv6 address' };
  if ('error' in ip) report('ip', ip.error);
  const mac = typeof record.mac === 'string' ? parseMac(record.mac) : { error: 'must be a MAC address such as 2c:59:e5:3b:a1:e4' };
  if ('error' in mac) report('mac', mac.error);
  const state = record.state as DhcpBindingState;
  if (!DHCP_BINDING_STATES.includes(state)) report('state', `must be one of ${DHCP_BINDING_STATES.join(', ')}`);
  const starts = instant(record.starts);
  if ('error' in starts) report('starts', starts.error);
  const ends = instant(record.ends);
  if ('error' in ends) report('ends', ends.error);
  const hostname = record.hostname;
  if (hostname !== undefined && hostname !== null && (typeof hostname !== 'string' || hostname.length > MAX_OBSERVED_HOSTNAME_LENGTH)) {
    report('hostname', `must be text of at most ${MAX_OBSERVED_HOSTNAME_LENGTH} characters, or null`);
  }
  if (problems.length > before) return null;
  return {
    ip: (ip as { ip: string }).ip,
    mac: (mac as { mac: string }).mac,
    state,
    starts: (starts as { at: string | null }).at,
    ends: (ends as { at: string | null }).at,
    hostname: (hostname as string | null | undefined) ?? null,
  };
};

/** Every record valid, or a 400 naming each bad `leases[i].field` (and nothing is written). */
export const parseDhcpLeaseRecords = (raw: unknown[]): DhcpLeaseRecord[] => {
  const problems: Problem[] = [];
  const records = raw.map((record, i) => parseRecord(record, `leases[${i}]`, problems));
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS_SHOWN);
    throw new InvalidInput(
      shown.map((p) => `${p.field}: ${p.problems.join('; ')}`).join(' | ') +
        (problems.length > shown.length ? ` | and ${problems.length - shown.length} more problems` : ''),
      shown,
    );
  }
  return records as DhcpLeaseRecord[];
};
