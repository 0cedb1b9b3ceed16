/**
 * `ledger-cli rebuild` and `verify` fold the whole log in a Node process with a bigger
 * young generation (apps/ledger-cli/src/bulk-heap.ts): the CLI starts itself again with the
 * flag. What an operator relies on: the rebuild still answers as before, a supervisor's
 * SIGTERM to the CLI stops the rebuild it started (no orphan keeps writing the read-model
 * file), and a heap the user chose is left alone.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LedgerProcess, runCli } from '@ledger/testing';
import { BULK_HEAP_FLAGS, hasChosenHeap } from '../apps/ledger-cli/src/bulk-heap';

const CLI = resolve(__dirname, '../apps/ledger-cli/src/main.js');
/** Long enough a rebuild (over a second here) that a signal sent as the child starts finds it running. */
const EVENTS = 50_000;

const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

const commandLineOf = (pid: number): string | undefined => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return undefined;
  }
};

const until = async <T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> => {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('ledger-cli folds the log with its heap flag (a bigger young generation)', () => {
  const dataDir = LedgerProcess.tempDataDir();
  const readModels = mkdtempSync(join(tmpdir(), 'ledger-bulk-heap-'));
  before(async () => {
    const generated = await runCli(['generate', '--events', String(EVENTS), '--data-dir', dataDir]);
    assert.equal(generated.status, 0, generated.stderr);
  });
  after(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(readModels, { recursive: true, force: true });
  });

  it('rebuilds in a child started with the flag, and answers as before', async () => {
    const result = await runCli(['rebuild', '--data-dir', dataDir, '--read-model-dir', readModels]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`^rebuilt ${EVENTS} events to position ${EVENTS} in `));
    assert.equal(result.stderr, '');
    const verified = await runCli(['verify', '--data-dir', dataDir, '--read-model-dir', readModels]);
    assert.equal(verified.status, 0, verified.stderr);
  });

  it('passes a SIGTERM on to the rebuild, and ends by it', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
    const cli = spawn(process.execPath, [CLI, 'rebuild', '--data-dir', dataDir, '--read-model-dir', join(readModels, 'stopped')], { stdio: 'ignore' });
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => cli.once('exit', (code, signal) => done({ code, signal })));
    // Between fork and exec a child still shows its parent's command line, and while exec
    // swaps its memory it shows an empty one: wait for its own.
    const parentLine = readFileSync(`/proc/${cli.pid}/cmdline`, 'utf8');
    const [child, ownLine] = await until('the relaunched CLI', () => {
      const pid = childrenOf(cli.pid!)[0];
      const line = pid === undefined ? undefined : commandLineOf(pid);
      return line && line !== parentLine ? ([pid, line] as const) : undefined;
    });
    const commandLine = ownLine.split('\0');
    for (const flag of BULK_HEAP_FLAGS) assert.ok(commandLine.includes(flag), commandLine.join(' '));
    cli.kill('SIGTERM');
    assert.deepEqual(await ended, { code: null, signal: 'SIGTERM' });
    // A bound for a hung child, not a speed check: on a loaded two-core host a process killed
    // in the middle of its rebuild's writes took over 10 s to be gone.
    await until('the rebuild to stop', () => (existsSync(`/proc/${child}`) ? undefined : true), 60_000);
  });

  it('leaves a heap the user chose alone', () => {
    assert.equal(hasChosenHeap([], ''), false);
    assert.equal(hasChosenHeap(['--max-semi-space-size=64'], ''), true);
    assert.equal(hasChosenHeap([], '--max-old-space-size=4096 --max-semi-space-size=8'), true);
    assert.equal(hasChosenHeap(['--inspect'], '--max-old-space-size=4096'), false);
  });
});
