import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const CLI = resolve(__dirname, '../../apps/ledger-cli/src/main.js');

/** Runs the built ledger-cli as a process, as an operator would. */
export const runCli = (args: string[], env: Record<string, string> = {}): { status: number; stdout: string; stderr: string } => {
  const result = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
};

/** Adds an API key to a ledger's keys file with `ledger-cli keys add` and returns the key. */
export const addKey = (dataDir: string, ...args: string[]): string => {
  const result = runCli(['keys', 'add', ...args], { LEDGER_DATA_DIR: dataDir });
  if (result.status !== 0) throw new Error(`keys add failed: ${result.stderr}`);
  return result.stdout.trim();
};
