/**
 * The data files hold the whole history (every consumer, owner, MAC and address) and the
 * keys: the ledger and ledger-cli create their directories 0700 and their files 0600,
 * SQLite's -wal and -shm files included (SQLite gives those the main file's mode), as
 * PostgreSQL insists on for its data directory. A data directory found open to others is
 * named in a warning at start. Real files, real modes, under the usual umask 022.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerProcess, runCli } from '@ledger/testing';
import { consumer, newRequestId } from './support/fixtures';
import type { Acquired } from './support/answers';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Every file directly in `dir`, by name, with its mode. */
const modes = (dir: string): Record<string, string> => Object.fromEntries(readdirSync(dir).map((name) => [name, modeOf(join(dir, name))]));

describe('data file modes', () => {
  let parent: string;
  let previousUmask: number;

  before(() => {
    // The common default: without the ledger's care, new files would be 0644 and directories 0755.
    previousUmask = process.umask(0o022);
    parent = mkdtempSync(join(tmpdir(), 'ledger-modes-'));
  });
  after(() => {
    process.umask(previousUmask);
    rmSync(parent, { recursive: true, force: true });
  });

  it('creates the data directory 0700 and every file in it 0600, SQLite -wal and -shm included', async () => {
    const dataDir = join(parent, 'server', 'data');
    const ledger = await LedgerProcess.start({ dataDir });
    try {
      assert.equal((await ledger.post('/v1/nodes', { nodeId: 'fm-1', hostname: 'fm-1' })).status, 201);
      assert.equal((await ledger.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('c', 'm'), nodeId: 'fm-1' })).status, 201);
      assert.equal((await ledger.get('/v1/nodes/fm-1?minPosition=2')).status, 200);
      assert.equal(modeOf(dataDir), '700');
      assert.equal(modeOf(join(parent, 'server')), '700', 'a parent it creates too');
      const files = modes(dataDir);
      for (const name of [
        'events.sqlite',
        'events.sqlite-wal',
        'events.sqlite-shm',
        'read-models.sqlite',
        'read-models.sqlite-wal',
        'read-models.sqlite-shm',
      ]) {
        assert.ok(name in files, `${name} exists: ${JSON.stringify(files)}`);
      }
      for (const [name, mode] of Object.entries(files)) assert.equal(mode, '600', `${name} is ${mode}: ${JSON.stringify(files)}`);
      assert.doesNotMatch(ledger.logs, /open to other users/, 'nothing to warn about');
    } finally {
      await ledger.stop();
    }
  });

  it('warns at start, naming each path, when it finds the data directory or a file in it open to others', async () => {
    const dataDir = join(parent, 'server', 'data');
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'events.sqlite'), 0o644);
    const ledger = await LedgerProcess.start({ dataDir });
    try {
      await ledger.waitForLog(/open to other users/);
      const warnings = ledger.logs
        .split('\n')
        .filter((line) => line.includes('open to other users'))
        .map((line) => JSON.parse(line));
      const named = new Map(warnings.map((line) => [line.path, `${line.level} ${line.mode}`]));
      assert.equal(named.get(dataDir), '40 0755');
      assert.equal(named.get(join(dataDir, 'events.sqlite')), '40 0644');
      // SQLite made the store's -wal and -shm afresh with the main file's mode: named too, and nothing else.
      for (const extra of ['events.sqlite-wal', 'events.sqlite-shm']) named.delete(join(dataDir, extra));
      assert.equal(named.size, 2, JSON.stringify(warnings));
      assert.equal((await ledger.get('/v1/nodes')).status, 200, 'it still starts');
      assert.equal(modeOf(dataDir), '755', 'and changes no mode an operator set');
    } finally {
      await ledger.stop();
    }
  });

  it('ledger-cli generate, rebuild and export create private files too', async () => {
    const dataDir = join(parent, 'cli', 'data');
    const generated = await runCli(['generate', '--events', '500', '--data-dir', dataDir]);
    assert.equal(generated.status, 0, generated.stderr);
    const rebuilt = await runCli(['rebuild', '--data-dir', dataDir]);
    assert.equal(rebuilt.status, 0, rebuilt.stderr);
    const out = join(parent, 'cli', 'export.ndjson');
    const exported = await runCli(['export', '--data-dir', dataDir, '--out', out]);
    assert.equal(exported.status, 0, exported.stderr);

    assert.equal(modeOf(dataDir), '700');
    const files = modes(dataDir);
    assert.ok('events.sqlite' in files && 'read-models.sqlite' in files, JSON.stringify(files));
    for (const [name, mode] of Object.entries(files)) assert.equal(mode, '600', `${name} is ${mode}: ${JSON.stringify(files)}`);
    assert.ok(existsSync(out));
    assert.equal(modeOf(out), '600', 'the exported history');
  });
});
