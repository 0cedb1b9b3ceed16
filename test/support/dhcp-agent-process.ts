import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const MAIN = resolve(__dirname, '../../apps/dhcp-agent/src/main.js');

/** The DHCP agent as an operator starts it: its one command, flags for the file, ledger and key. */
export class DhcpAgentProcess {
  output = '';
  port: number | null = null;
  private readonly child: ChildProcess;

  constructor(args: { leases: string; ledger: string; key: string; stateDir: string; extra?: string[] }) {
    this.child = spawn(
      process.execPath,
      [
        MAIN,
        '--leases',
        args.leases,
        '--ledger',
        args.ledger,
        '--state-dir',
        args.stateDir,
        '--listen',
        '127.0.0.1:0',
        '--poll-ms',
        '100',
        ...(args.extra ?? []),
      ],
      { env: { ...process.env, LEDGER_API_KEY: args.key }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const take = (chunk: Buffer) => {
      this.output += chunk.toString();
      const match = this.port === null ? /"port":(\d+).*"msg":"dhcp agent listening"/.exec(this.output) : null;
      if (match) this.port = Number(match[1]);
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', take);
  }

  static stateDirIn(dir: string): string {
    return join(dir, 'agent-state');
  }

  async health(): Promise<{ status: number; body: Record<string, unknown> } | null> {
    if (this.port === null) return null;
    const response = await fetch(`http://127.0.0.1:${this.port}/healthz`).catch(() => null);
    return response ? { status: response.status, body: (await response.json()) as Record<string, unknown> } : null;
  }

  /** How many records the agent's log says it posted. */
  postedRecords(): number {
    return [...this.output.matchAll(/"records":(\d+)[^\n]*"msg":"posted lease records"/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill(signal);
    await exited;
  }
}
