import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';

const MAIN = resolve(__dirname, '../../apps/maas-facade/src/main.js');

/** The MAAS facade, started as its own process with its one command, as an operator would; stopped with SIGTERM. */
export class MaasFacadeProcess {
  private constructor(
    private readonly child: ChildProcess,
    private readonly closed: Promise<unknown>,
    private readonly output: { text: string },
    /** What Juju is given as the MAAS endpoint: http://host:port/MAAS/ */
    readonly url: string,
  ) {}

  static async start(env: Record<string, string>): Promise<MaasFacadeProcess> {
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, LEDGER_FACADE_PORT: '0', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closed = once(child, 'close').catch(() => undefined);
    const output = { text: '' };
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output.text += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output.text += chunk));
    const port = await new Promise<number>((resolvePort, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the facade did not start within 60s:\n${output.text}`));
      }, 60_000);
      const onData = () => {
        const match = /"port":(\d+)[^\n]*"msg":"maas facade listening"/.exec(output.text);
        if (!match) return;
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolvePort(Number(match[1]));
      };
      child.stdout!.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the facade exited with ${code} before listening:\n${output.text}`));
      });
    });
    return new MaasFacadeProcess(child, closed, output, `http://127.0.0.1:${port}/MAAS/`);
  }

  get logs(): string {
    return this.output.text;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.closed;
  }
}
