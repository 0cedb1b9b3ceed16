import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const CLI = resolve(__dirname, '../../../apps/ledger-cli/src/main.js');

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built ledger-cli as a process, as an operator would. Asynchronously on
 * purpose: a synchronous run blocks this process's event loop, so its fetch pool never
 * sees the server close an idle connection and the next request fails (issue 10, item 12).
 */
export const runCli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolveRun({ status: code ?? -1, stdout, stderr }));
  });

/** Adds an API key to a ledger's keys file with `ledger-cli keys add` and returns the key (a quick local run: no connection waits on it). */
export const addKey = (dataDir: string, ...args: string[]): string => {
  const result = spawnSync(process.execPath, [CLI, 'keys', 'add', ...args], {
    env: { ...process.env, LEDGER_DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`keys add failed: ${result.stderr}`);
  return result.stdout.trim();
};
