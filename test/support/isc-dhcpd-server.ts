import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAB_SUBNET, type DhcpLab } from './dhcp-lab';

/**
 * ISC dhcpd 4.4 in the lab's server namespace, in the foreground (`-f -d`), bound only to
 * its veth, with its configuration, lease file and pid file in the lab's folder. dhcpd
 * rewrites its lease file whenever it starts, so a restart is also a rewrite.
 */
export class IscDhcpdServer {
  readonly leaseFile: string;
  private readonly config: string;
  private child: ChildProcess | null = null;
  /** The OMAPI key's secret (dhcpd listens for OMAPI on 7911 inside the server namespace only). */
  private readonly omapiSecret = randomBytes(16).toString('base64');
  output = '';

  constructor(
    private readonly lab: DhcpLab,
    settings: { leaseTime: number },
  ) {
    this.leaseFile = join(lab.dir, 'dhcpd.leases');
    this.config = join(lab.dir, 'dhcpd.conf');
    writeFileSync(this.leaseFile, '');
    writeFileSync(
      this.config,
      [
        'authoritative;',
        'omapi-port 7911;',
        `key omapi_key { algorithm hmac-md5; secret "${this.omapiSecret}"; };`,
        'omapi-key omapi_key;',
        `default-lease-time ${settings.leaseTime};`,
        `max-lease-time ${settings.leaseTime};`,
        `min-lease-time ${settings.leaseTime};`,
        `subnet ${LAB_SUBNET}.0 netmask 255.255.255.0 {`,
        `  range ${LAB_SUBNET}.100 ${LAB_SUBNET}.120;`,
        '}',
        '',
      ].join('\n'),
    );
  }

  start(): void {
    const child = this.lab.spawnIn(this.lab.serverNs, [
      'dhcpd',
      '-4',
      '-f',
      '-d',
      '-cf',
      this.config,
      '-lf',
      this.leaseFile,
      '-pf',
      join(this.lab.dir, 'dhcpd.pid'),
      this.lab.serverIface,
    ]);
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child = child;
  }

  /**
   * What docs/dhcp-agent.md tells an operator to do, with dhcpd stopped, to free an address
   * the agent reports: append a declaration of the address in the `free` state (the last
   * declaration of an address is the one dhcpd reads), naming the MAC it was bound to.
   */
  markFree(ip: string, mac: string, at = new Date()): void {
    const pad = (n: number) => String(n).padStart(2, '0');
    const when = `${at.getUTCDay()} ${at.getUTCFullYear()}/${pad(at.getUTCMonth() + 1)}/${pad(at.getUTCDate())} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`;
    appendFileSync(this.leaseFile, `lease ${ip} {\n  starts ${when};\n  ends ${when};\n  binding state free;\n  hardware ethernet ${mac};\n}\n`);
  }

  /** The other way docs/dhcp-agent.md gives: omshell sets the lease's state to free (1), dhcpd running. Returns omshell's output. */
  freeThroughOmapi(ip: string): string {
    const commands = [
      'server 127.0.0.1',
      'port 7911',
      `key omapi_key ${this.omapiSecret}`,
      'connect',
      'new lease',
      `set ip-address = ${ip}`,
      'open',
      'set state = 1',
      'update',
      '',
    ];
    const run = spawnSync('ip', ['netns', 'exec', this.lab.serverNs, 'omshell'], { input: commands.join('\n'), encoding: 'utf8', timeout: 30_000 });
    return `${run.stdout ?? ''}${run.stderr ?? ''}`;
  }

  async stop(): Promise<void> {
    await this.lab.stop(this.child);
    this.child = null;
  }
}
