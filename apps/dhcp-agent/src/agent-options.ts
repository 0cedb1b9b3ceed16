import { parseArgs } from 'node:util';
import { basename, resolve } from 'node:path';

export const USAGE = `usage: dhcp-agent --leases FILE [options]

Follows a DHCP server's lease database and posts every change to the ledger.

  --leases FILE        the lease file: Kea's memfile (kea-leases4.csv, or
                       kea-leases6.csv for DHCPv6) or ISC dhcpd's (dhcpd.leases)
  --format kea|isc     its format (default: kea for a .csv name, else isc)
  --ledger URL         the ledger (env LEDGER_URL; http://127.0.0.1:3000)
  --key KEY            a provider key (env LEDGER_API_KEY)
  --source NAME        the server's name in the ledger (default kea:FILE NAME)
  --state-dir DIR      where the checkpoint is kept (env DHCP_AGENT_STATE_DIR,
                       default ./dhcp-agent-state)
  --listen HOST:PORT   GET /healthz here (default 127.0.0.1:9547; port 0: any)
  --poll-ms N          how often the file is looked at (default 200)
  --reclaim            free at Kea the addresses whose ledger owner ended
                       (with ISC dhcpd: report them, for an operator to free)
  --kea-socket PATH    Kea's control socket (lease_cmds), needed by --reclaim
  --reclaim-grace S    seconds an address stays orphaned first (default 60)
  --help               this text

Exit: 0 on SIGTERM/SIGINT, 2 on bad flags.`;

export interface AgentOptions {
  leases: string;
  /** Kea's memfile CSV (DHCPv4 or DHCPv6: its header tells), or ISC dhcpd's dhcpd.leases journal. */
  format: 'kea' | 'isc';
  ledgerUrl: string;
  apiKey: string | null;
  source: string;
  stateDir: string;
  listenHost: string;
  listenPort: number;
  pollMs: number;
  /** Set with --reclaim: Kea's control socket (null for ISC dhcpd: report only) and the grace period, in milliseconds. */
  reclaim: { keaSocket: string | null; graceMs: number } | null;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const positiveInteger = (text: string, flag: string, min: number): number => {
  if (!/^\d{1,9}$/.test(text) || Number(text) < min) throw new UsageError(`${flag} must be a whole number of at least ${min}, not '${text.slice(0, 40)}'`);
  return Number(text);
};

/** Flags first, then the environment, then the defaults. Returns null when --help was asked for. */
export const parseAgentOptions = (argv: string[], env: NodeJS.ProcessEnv): AgentOptions | null => {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        leases: { type: 'string' },
        format: { type: 'string' },
        ledger: { type: 'string' },
        key: { type: 'string' },
        source: { type: 'string' },
        'state-dir': { type: 'string' },
        listen: { type: 'string' },
        'poll-ms': { type: 'string' },
        reclaim: { type: 'boolean' },
        'kea-socket': { type: 'string' },
        'reclaim-grace': { type: 'string' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.help) return null;
  if (!parsed.leases) throw new UsageError('--leases FILE is required (the DHCP server lease file to follow)');
  if (parsed.format !== undefined && parsed.format !== 'kea' && parsed.format !== 'isc') {
    throw new UsageError(`--format must be kea or isc, not '${parsed.format.slice(0, 40)}'`);
  }
  const format = parsed.format ?? (parsed.leases.toLowerCase().endsWith('.csv') ? 'kea' : 'isc');
  const ledgerUrl = parsed.ledger ?? env.LEDGER_URL ?? 'http://127.0.0.1:3000';
  try {
    const url = new URL(ledgerUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new UsageError(`--ledger must be an http(s) URL, not '${ledgerUrl.slice(0, 80)}'`);
  }
  const listen = parsed.listen ?? '127.0.0.1:9547';
  const match = /^(.+):(\d{1,5})$/.exec(listen);
  if (!match || Number(match[2]) > 65535) throw new UsageError(`--listen must be HOST:PORT, not '${listen.slice(0, 80)}'`);
  const leases = resolve(parsed.leases);
  if (parsed.reclaim && format === 'kea' && !parsed['kea-socket'])
    throw new UsageError("--reclaim needs --kea-socket PATH (Kea's control-socket, with libdhcp_lease_cmds.so loaded)");
  if (parsed['kea-socket'] !== undefined && format === 'isc')
    throw new UsageError('--kea-socket is for Kea: ISC dhcpd has no control channel, and with --reclaim the agent reports what it would reclaim');
  const graceSeconds = parsed['reclaim-grace'] === undefined ? 60 : Number(parsed['reclaim-grace']);
  if (parsed['reclaim-grace'] !== undefined && !/^\d{1,7}(\.\d{1,3})?$/.test(parsed['reclaim-grace']))
    throw new UsageError(`--reclaim-grace must be a number of seconds, not '${parsed['reclaim-grace'].slice(0, 40)}'`);
  return {
    leases,
    format,
    ledgerUrl,
    apiKey: parsed.key ?? env.LEDGER_API_KEY ?? null,
    source: parsed.source ?? `${format}:${basename(leases)}`,
    stateDir: resolve(parsed['state-dir'] ?? env.DHCP_AGENT_STATE_DIR ?? 'dhcp-agent-state'),
    listenHost: match[1],
    listenPort: Number(match[2]),
    pollMs: parsed['poll-ms'] ? positiveInteger(parsed['poll-ms'], '--poll-ms', 10) : 200,
    reclaim: parsed.reclaim
      ? { keaSocket: parsed['kea-socket'] === undefined ? null : resolve(parsed['kea-socket']), graceMs: Math.round(graceSeconds * 1000) }
      : null,
  };
};
