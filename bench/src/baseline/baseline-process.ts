import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The baseline (bare-http-server.ts) as its own process, like the ledger: same machine, same load generator. */
export class BaselineProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly dataDir: string,
  ) {}

  static async start(): Promise<BaselineProcess> {
    const dataDir = mkdtempSync(join(tmpdir(), 'ledger-bench-baseline-'));
    const child = spawn(process.execPath, [join(__dirname, 'bare-http-server.js'), dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
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
