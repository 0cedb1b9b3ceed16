import type { ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAB_SUBNET, LAB_SUBNET6, type DhcpLab } from './dhcp-lab';

const HOOKS = ['/usr/lib/x86_64-linux-gnu/kea/hooks', '/usr/lib/aarch64-linux-gnu/kea/hooks', '/usr/lib/kea/hooks'];
export const leaseCmdsHook = (): string | null => HOOKS.map((dir) => join(dir, 'libdhcp_lease_cmds.so')).find(existsSync) ?? null;

/**
 * Kea 2.2's DHCPv4 server (or, with `family: 6`, its DHCPv6 server) in the lab's server
 * namespace, bound only to its veth, with a short lifetime and reclaim timers of a second (so
 * expiry is testable), lease file cleanup every few seconds (so the agent is tested through
 * rotations), and its control socket with lease_cmds (what the agent's reclaim speaks to). Its
 * pid and lock files go to the lab's folder; the DHCPv6 server's DUID is not persisted (Kea
 * would write it to its system folder), so nothing is left outside the lab.
 */
export class KeaServer {
  readonly leaseFile: string;
  readonly socket: string;
  private readonly program: string;
  private child: ChildProcess | null = null;
  output = '';

  constructor(
    private readonly lab: DhcpLab,
    settings: { validLifetime: number; lfcInterval: number; family?: 4 | 6 },
  ) {
    const family = settings.family ?? 4;
    this.program = `kea-dhcp${family}`;
    this.leaseFile = join(lab.dir, `kea-leases${family}.csv`);
    this.socket = join(lab.dir, `kea${family}.sock`);
    const hook = leaseCmdsHook();
    const common = {
      'control-socket': { 'socket-type': 'unix', 'socket-name': this.socket },
      'lease-database': { type: 'memfile', persist: true, name: this.leaseFile, 'lfc-interval': settings.lfcInterval },
      'valid-lifetime': settings.validLifetime,
      'expired-leases-processing': { 'reclaim-timer-wait-time': 1, 'flush-reclaimed-timer-wait-time': 1, 'hold-reclaimed-time': 2 },
      'hooks-libraries': hook ? [{ library: hook }] : [],
      loggers: [{ name: this.program, output_options: [{ output: join(lab.dir, 'kea.log') }], severity: 'INFO' }],
    };
    const config =
      family === 4
        ? {
            Dhcp4: {
              ...common,
              'interfaces-config': { interfaces: [lab.serverIface], 'dhcp-socket-type': 'raw' },
              subnet4: [{ id: 1, subnet: `${LAB_SUBNET}.0/24`, pools: [{ pool: `${LAB_SUBNET}.100 - ${LAB_SUBNET}.120` }] }],
            },
          }
        : {
            Dhcp6: {
              ...common,
              'interfaces-config': { interfaces: [lab.serverIface] },
              'preferred-lifetime': Math.floor(settings.validLifetime / 2),
              'server-id': { type: 'EN', 'enterprise-id': 2495, identifier: '6c6564676572', persist: false },
              // A client on the link, not behind a relay: the subnet is chosen by the interface it asks on.
              subnet6: [{ id: 1, subnet: `${LAB_SUBNET6}::/64`, interface: lab.serverIface, pools: [{ pool: `${LAB_SUBNET6}::100 - ${LAB_SUBNET6}::120` }] }],
            },
          };
    writeFileSync(join(lab.dir, `kea-dhcp${family}.json`), JSON.stringify(config, null, 1));
  }

  start(): void {
    const child = this.lab.spawnIn(this.lab.serverNs, [this.program, '-c', join(this.lab.dir, `${this.program}.json`)], {
      KEA_PIDFILE_DIR: this.lab.dir,
      KEA_LOCKFILE_DIR: this.lab.dir,
    });
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child = child;
  }

  async stop(): Promise<void> {
    await this.lab.stop(this.child);
    this.child = null;
  }
}
