import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** Which baseline: the bare node:http server, or the same commands behind NestJS on fastify (the framework's floor). */
export type BaselineServer = 'bare' | 'nest-floor';

const SCRIPTS: Record<BaselineServer, string> = { bare: 'bare-http-server.js', 'nest-floor': 'nest-floor-server.js' };

/** A baseline server (bare-http-server.ts, nest-floor-server.ts) as its own process, like the ledger: same machine, same load generator. */
export class BaselineProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly dataDir: string,
  ) {}

  /** `nodeArgs` and `env` (added to this process's) are for the profiling tools, which load a preload into it. */
  static async start(options: { server?: BaselineServer; nodeArgs?: readonly string[]; env?: Record<string, string> } = {}): Promise<BaselineProcess> {
    const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-baseline-'));
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), join(__dirname, SCRIPTS[options.server ?? 'bare']), dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...options.env },
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the baseline server exited with ${code} before listening`)));
      createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    });
    return new BaselineProcess(child, port, dataDir);
  }

  get pid(): number {
    return this.child.pid!;
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
