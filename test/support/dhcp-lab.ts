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

const need = ['ip', 'kea-dhcp4', 'udhcpc'];
const which = (name: string): boolean => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;

/** Why the lab cannot run here, or null when it can. */
export const labUnavailable = (server: 'kea' | 'isc' = 'kea'): string | null => {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'creating network namespaces needs root (CI runs as root)';
  const missing = [...need.filter((n) => n !== 'kea-dhcp4' || server === 'kea'), ...(server === 'isc' ? ['dhcpd'] : [])].filter((n) => !which(n));
  if (missing.length > 0) return `missing ${missing.join(', ')} (Debian packages kea-dhcp4-server, isc-dhcp-server, udhcpc; .ci/run installs them)`;
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

export class DhcpLab {
  readonly dir: string;
  private readonly namespaces: string[] = [];
  private readonly processes = new Set<ChildProcess>();
  private readonly tag: string;
  readonly serverNs: string;
  readonly serverIface: string;
  private readonly bridgeNs: string;
  private clientCount = 0;

  constructor() {
    this.tag = `l58${(process.pid % 1000).toString(36)}${Date.now().toString(36).slice(-3)}`;
    this.dir = mkdtempSync(join(tmpdir(), 'dhcp-lab-'));
    chmodSync(this.dir, 0o755);
    this.bridgeNs = `${this.tag}-br`;
    this.serverNs = `${this.tag}-srv`;
    this.serverIface = `${this.tag}s`;
    writeFileSync(join(this.dir, 'udhcpc.sh'), CLIENT_SCRIPT, { mode: 0o755 });
    this.addNamespace(this.bridgeNs);
    ip('-n', this.bridgeNs, 'link', 'add', 'br0', 'type', 'bridge');
    ip('-n', this.bridgeNs, 'link', 'set', 'br0', 'up');
    this.addNamespace(this.serverNs);
    this.plug(this.serverNs, this.serverIface, null);
    ip('-n', this.serverNs, 'addr', 'add', `${SERVER_IP}/24`, 'dev', this.serverIface);
  }

  private addNamespace(name: string): void {
    ip('netns', 'add', name);
    this.namespaces.push(name);
    ip('-n', name, 'link', 'set', 'lo', 'up');
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
