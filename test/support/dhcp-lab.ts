import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private DHCP network inside network namespaces, created and removed by the test: a
 * bridge in its own namespace, the server's namespace on one veth, one namespace per
 * container on another, each with the MAC the test chose. The subnet is routed nowhere
 * and no namespace has a route out, so no DHCP traffic leaves them; the host's own
 * interfaces, routes and resolv.conf are never touched. Every process is stopped by its
 * PID and every namespace deleted in `destroy()`, which tests call also when they fail.
 */
export const LAB_SUBNET = '10.213.58';
export const SERVER_IP = `${LAB_SUBNET}.1`;
/** A unique local (ULA, RFC 4193) /64 for the DHCPv6 lab: routed nowhere, like the IPv4 one. */
export const LAB_SUBNET6 = 'fd00:5eed';
export const SERVER_IP6 = `${LAB_SUBNET6}::1`;

/**
 * The programs each lab needs, and the Debian packages that bring them. The DHCPv6 client is
 * ISC's `dhclient -6` (isc-dhcp-client): Debian builds busybox without udhcpc6.
 */
const NEEDS = {
  kea: { programs: ['ip', 'kea-dhcp4', 'udhcpc'], packages: 'kea-dhcp4-server, udhcpc, iproute2' },
  isc: { programs: ['ip', 'dhcpd', 'udhcpc'], packages: 'isc-dhcp-server, udhcpc, iproute2' },
  kea6: { programs: ['ip', 'kea-dhcp6', 'dhclient'], packages: 'kea-dhcp6-server, isc-dhcp-client, iproute2' },
};
const which = (name: string): boolean => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;

/** Why the lab cannot run here, or null when it can. */
export const labUnavailable = (server: keyof typeof NEEDS = 'kea'): string | null => {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'creating network namespaces needs root (CI runs as root)';
  const missing = NEEDS[server].programs.filter((n) => !which(n));
  if (missing.length > 0) return `missing ${missing.join(', ')} (Debian packages ${NEEDS[server].packages}; .ci/run installs them)`;
  const probe = `l58probe${process.pid % 10000}`;
  const made = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (made.status !== 0) return `cannot create a network namespace: ${made.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return null;
};

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

export interface LabClient {
  name: string;
  mac: string;
  ns: string;
  iface: string;
  process: ChildProcess | null;
  output: string;
}

/** The udhcpc event script: configures the address inside the container's namespace only (never resolv.conf), so a DHCPRELEASE can be sent from it. */
const CLIENT_SCRIPT = `#!/bin/sh
case "$1" in
  deconfig) ip addr flush dev "$interface" ;;
  bound|renew) ip addr flush dev "$interface"; ip addr add "$ip/\${mask:-24}" dev "$interface" ;;
esac
exit 0
`;

/** The dhclient -6 script: the address on the container's interface only (never resolv.conf), and a line the test reads. */
const CLIENT6_SCRIPT = `#!/bin/sh
case "$reason" in
  BOUND6|RENEW6|REBIND6) ip -6 addr replace "$new_ip6_address/128" dev "$interface" nodad; echo "dhcp6 bound $new_ip6_address" ;;
esac
exit 0
`;

export class DhcpLab {
  readonly dir: string;
  private readonly namespaces: string[] = [];
  private readonly processes = new Set<ChildProcess>();
  private readonly tag: string;
  readonly serverNs: string;
  readonly serverIface: string;
  private readonly bridgeNs: string;
  private clientCount = 0;
  private readonly ipv6: boolean;

  /** With `ipv6`, the lab speaks DHCPv6 too: the server gets an address in LAB_SUBNET6, and no namespace does duplicate address detection. */
  constructor(options: { ipv6?: boolean } = {}) {
    this.ipv6 = options.ipv6 ?? false;
    this.tag = `l58${(process.pid % 1000).toString(36)}${Date.now().toString(36).slice(-3)}`;
    this.dir = mkdtempSync(join(tmpdir(), 'dhcp-lab-'));
    chmodSync(this.dir, 0o755);
    this.bridgeNs = `${this.tag}-br`;
    this.serverNs = `${this.tag}-srv`;
    this.serverIface = `${this.tag}s`;
    writeFileSync(join(this.dir, 'udhcpc.sh'), CLIENT_SCRIPT, { mode: 0o755 });
    writeFileSync(join(this.dir, 'dhclient6.sh'), CLIENT6_SCRIPT, { mode: 0o755 });
    this.addNamespace(this.bridgeNs);
    ip('-n', this.bridgeNs, 'link', 'add', 'br0', 'type', 'bridge');
    // A DHCPv6 client asks by multicast (ff02::1:2): the bridge floods it rather than wait to learn who listens.
    if (this.ipv6) ip('-n', this.bridgeNs, 'link', 'set', 'br0', 'type', 'bridge', 'mcast_snooping', '0');
    ip('-n', this.bridgeNs, 'link', 'set', 'br0', 'up');
    this.addNamespace(this.serverNs);
    this.plug(this.serverNs, this.serverIface, null);
    ip('-n', this.serverNs, 'addr', 'add', `${SERVER_IP}/24`, 'dev', this.serverIface);
    if (this.ipv6) ip('-n', this.serverNs, 'addr', 'add', `${SERVER_IP6}/64`, 'dev', this.serverIface, 'nodad');
  }

  private addNamespace(name: string): void {
    ip('netns', 'add', name);
    this.namespaces.push(name);
    ip('-n', name, 'link', 'set', 'lo', 'up');
    // DHCPv6 speaks from the link-local address: usable at once without DAD, not after a tentative second. Set before the veth exists, which takes the default.
    if (this.ipv6)
      execFileSync('ip', ['netns', 'exec', name, 'sh', '-c', 'for c in all default; do echo 0 > /proc/sys/net/ipv6/conf/$c/accept_dad; done'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
  }

  /** A veth from `ns` (named `iface`, with `mac`) to a port of the bridge. */
  private plug(ns: string, iface: string, mac: string | null): void {
    const port = `${iface}p`;
    ip('link', 'add', iface, 'netns', ns, ...(mac ? ['address', mac] : []), 'type', 'veth', 'peer', 'name', port, 'netns', this.bridgeNs);
    ip('-n', this.bridgeNs, 'link', 'set', port, 'master', 'br0');
    ip('-n', this.bridgeNs, 'link', 'set', port, 'up');
    ip('-n', ns, 'link', 'set', iface, 'up');
  }

  /** A container: its own namespace with one interface carrying `mac`. */
  container(name: string, mac: string): LabClient {
    const n = ++this.clientCount;
    const ns = `${this.tag}-c${n}`;
    const iface = `${this.tag}c${n}`;
    this.addNamespace(ns);
    this.plug(ns, iface, mac);
    return { name, mac, ns, iface, process: null, output: '' };
  }

  /** Starts a process inside `ns`; `ip netns exec` execs it, so the child's PID is the process's own. */
  spawnIn(ns: string, command: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
    const child = spawn('ip', ['netns', 'exec', ns, ...command], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.processes.add(child);
    child.once('exit', () => this.processes.delete(child));
    return child;
  }

  /** udhcpc in the foreground in the container's namespace; `-A 1`: retry a second after a decline; `-r`: ask for this address. */
  startClient(client: LabClient, requested?: string): void {
    client.output = '';
    const ask = requested ? ['-r', requested] : [];
    const child = this.spawnIn(client.ns, ['udhcpc', '-f', '-i', client.iface, '-s', join(this.dir, 'udhcpc.sh'), '-t', '20', '-T', '1', '-A', '1', ...ask]);
    child.stdout!.on('data', (chunk: Buffer) => (client.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (client.output += chunk.toString()));
    client.process = child;
  }

  /** ISC dhclient -6 in the foreground in the container's namespace: its DUID-LLT carries the MAC; its lease file stays in the lab. */
  startClient6(client: LabClient): void {
    client.output = '';
    const files = (ext: string) => join(this.dir, `${client.iface}.${ext}`);
    const child = this.spawnIn(client.ns, [
      'dhclient',
      '-6',
      '-d',
      '-v',
      '-sf',
      join(this.dir, 'dhclient6.sh'),
      '-lf',
      files('leases6'),
      '-pf',
      files('pid6'),
      client.iface,
    ]);
    child.stdout!.on('data', (chunk: Buffer) => (client.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (client.output += chunk.toString()));
    client.process = child;
  }

  /** The IPv6 address dhclient last bound, or null. */
  static address6Of(client: LabClient): string | null {
    const leases = [...client.output.matchAll(/dhcp6 bound (\S+)/g)];
    return leases.length ? leases[leases.length - 1][1] : null;
  }

  /** The address udhcpc last obtained, or null. */
  static addressOf(client: LabClient): string | null {
    const leases = [...client.output.matchAll(/lease of (\S+) obtained/g)];
    return leases.length ? leases[leases.length - 1][1] : null;
  }

  /** Sends DHCPRELEASE (udhcpc's SIGUSR2), then stops the client. */
  async release(client: LabClient): Promise<void> {
    client.process?.kill('SIGUSR2');
    const deadline = Date.now() + 10_000;
    while (!/entering released state/.test(client.output) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await this.stop(client.process);
    client.process = null;
  }

  /**
   * The container vanishes without a word (a forced teardown): SIGKILL, no release, and its
   * address goes with it, so a server that pings an address before offering it (dhcpd does)
   * finds nobody there.
   */
  async vanish(client: LabClient): Promise<void> {
    await this.stop(client.process, 'SIGKILL');
    client.process = null;
    spawnSync('ip', ['-n', client.ns, 'addr', 'flush', 'dev', client.iface]);
  }

  async stop(child: ChildProcess | null, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  /** Every process stopped by its PID, every namespace deleted, the folder removed. */
  async destroy(): Promise<void> {
    await Promise.all([...this.processes].map((child) => this.stop(child)));
    for (const ns of this.namespaces.reverse()) spawnSync('ip', ['netns', 'del', ns]);
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The names of the lab's namespaces still present (none after destroy()). */
  leftovers(): string[] {
    const listed = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout;
    return listed
      .split('\n')
      .map((line) => line.split(' ')[0])
      .filter((name) => name.startsWith(this.tag));
  }

  read(file: string): string {
    return readFileSync(join(this.dir, file), 'utf8');
  }
}
