import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const MAIN = resolve(__dirname, '../../../apps/dhcp-agent/src/main.js');
const TICKS_PER_SECOND = 100;

export const KEA_HEADER = 'address,hwaddr,client_id,valid_lifetime,expire,subnet_id,fqdn_fwd,fqdn_rev,hostname,state,user_context\n';

/** The address and MAC of lease number `n` (0-based) of a bench run. */
export const benchLease = (n: number) => ({
  ip: `10.${100 + (n >> 16)}.${(n >> 8) & 0xff}.${n & 0xff}`,
  mac: `02:be:${((n >> 16) & 0xff).toString(16).padStart(2, '0')}:${((n >> 8) & 0xff).toString(16).padStart(2, '0')}:${(n & 0xff).toString(16).padStart(2, '0')}:01`,
});

/** One row of Kea's memfile as kea-dhcp4 2.2 writes it for a lease of `lifetime` seconds that ends at `expire` (epoch seconds). */
export const keaRow = (n: number, lifetime: number, expire: number, state = 0): string => {
  const { ip, mac } = benchLease(n);
  return `${ip},${mac},,${lifetime},${expire},1,0,0,c${n},${state},\n`;
};

/** The DHCP agent as a separate process, as it runs beside a server; its CPU time read from /proc. */
export class AgentRunner {
  private readonly child: ChildProcess;
  output = '';
  port: number | null = null;

  constructor(args: { leases: string; ledgerUrl: string; key: string; stateDir: string }) {
    this.child = spawn(
      process.execPath,
      [MAIN, '--leases', args.leases, '--ledger', args.ledgerUrl, '--state-dir', args.stateDir, '--listen', '127.0.0.1:0', '--poll-ms', '100'],
      { env: { ...process.env, LEDGER_API_KEY: args.key, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child.stdout!.on('data', (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000)));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000)));
  }

  /** User and system CPU seconds the agent has used so far. */
  cpuSeconds(): number {
    const fields = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  }

  /** Waits until the agent has posted everything up to `offset` of its file (read from its checkpoint). */
  async postedTo(checkpoint: string, offset: number, maxMs = 600_000): Promise<void> {
    const deadline = performance.now() + maxMs;
    for (;;) {
      let at = -1;
      try {
        at = (JSON.parse(readFileSync(checkpoint, 'utf8')) as { file: { offset: number } | null }).file?.offset ?? -1;
      } catch {
        // not written yet
      }
      if (at >= offset) return;
      if (this.child.exitCode !== null) throw new Error(`the agent exited: ${this.output}`);
      if (performance.now() > deadline) throw new Error(`the agent did not post up to ${offset} within ${maxMs} ms (at ${at}): ${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
