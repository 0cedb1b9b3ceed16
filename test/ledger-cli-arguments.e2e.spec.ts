/**
 * ledger-cli's argument handling, as an operator meets it, on a data directory a ledger
 * has written (events and read models): `--help` on every command prints its usage and
 * does nothing at all (the files are byte for byte the same afterwards), `--version`,
 * and strict parsing: unknown options, missing values and values given to flags exit 2
 * with the usage.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { COMMANDS } from '../apps/ledger-cli/src/main';
import { LedgerProcess, runCli } from '@ledger/testing';
import { enlist } from './support/fixtures';

/** Every file of the data directory: name, size and content hash. */
const fingerprint = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => {
        const path = join(dir, name);
        return [name, `${statSync(path).size}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`];
      }),
  );

/** For each command, arguments that would make it act (write, rebuild, post, add a key) were it not for --help. */
const actingArgs = (dataDir: string): Record<string, string[]> => ({
  keys: ['keys', 'add', '--name', 'intruder', '--role', 'operator'],
  import: ['import', join(dataDir, 'dhcpd.leases'), '--url', 'http://127.0.0.1:9'],
  replay: ['replay', '--until', '1', '--data-dir', dataDir],
  rebuild: ['rebuild', '--data-dir', dataDir],
  verify: ['verify', '--data-dir', dataDir, '--keep-scratch'],
  export: ['export', '--data-dir', dataDir, '--out', join(dataDir, 'export.ndjson')],
  generate: ['generate', '--events', '10', '--data-dir', dataDir],
});

describe('ledger-cli arguments', async () => {
  let dataDir: string;
  before(async () => {
    const ledger = await LedgerProcess.start();
    dataDir = ledger.dataDir;
    for (const nodeId of ['node-a', 'node-b', 'node-c']) assert.equal((await enlist(ledger, nodeId)).status, 201);
    // Stopped, so nothing but the CLI could change the files.
    await ledger.stop();
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('--help on every command prints its usage, exits 0 and writes nothing', async () => {
    const before = fingerprint(dataDir);
    assert.ok(before['events.sqlite'] && before['read-models.sqlite'], `a populated data directory: ${Object.keys(before).join(', ')}`);
    const args = actingArgs(dataDir);
    for (const command of COMMANDS) {
      const acting = args[command.name];
      assert.ok(acting, `the test knows how to make "${command.name}" act`);
      for (const help of [
        [...acting, '--help'],
        [command.name, '-h', ...acting.slice(1)],
        ['help', command.name],
      ]) {
        const result = await runCli(help, { LEDGER_DATA_DIR: dataDir });
        assert.equal(result.status, 0, `${help.join(' ')}: ${result.stderr}`);
        assert.equal(result.stdout.trim(), command.usage, help.join(' '));
        assert.equal(result.stderr, '', help.join(' '));
      }
    }
    assert.deepEqual(fingerprint(dataDir), before, 'nothing in the data directory changed');
  });

  it('--version prints the version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as { version: string };
    const result = await runCli(['--version']);
    assert.equal(result.status, 0);
    assert.equal(result.stdout.trim(), `ledger-cli ${version}`);
  });

  it('refuses unknown options, missing values and values given to flags with exit 2 and the usage', async () => {
    const before = fingerprint(dataDir);
    const refused: [string[], RegExp][] = [
      [['rebuild', '--data-dir', dataDir, '--frobnicate'], /^unknown option --frobnicate/],
      [['rebuild', '--data-dir'], /^--data-dir needs a value/],
      [['rebuild', '--data-dir', '--snapshot-every', '5'], /^--data-dir needs a value/],
      [['verify', '--data-dir', dataDir, '--keep-scratch=yes'], /^--keep-scratch is a flag: it takes no value/],
      [['import', 'dhcpd.leases', '--dry-run=false'], /^--dry-run is a flag: it takes no value/],
      [['export', '-x'], /^unknown option -x/],
      [['nonsense'], /^unknown command "nonsense"/],
    ];
    for (const [argv, message] of refused) {
      const result = await runCli(argv, { LEDGER_DATA_DIR: dataDir });
      assert.equal(result.status, 2, `${argv.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, argv.join(' '));
      assert.match(result.stderr, /usage: ledger-cli /, argv.join(' '));
      assert.equal(result.stdout, '', argv.join(' '));
    }
    assert.deepEqual(fingerprint(dataDir), before);
  });

  it('a flag given before a positional leaves the positional alone (import --dry-run FILE)', async () => {
    const result = await runCli(['import', '--dry-run', join(dataDir, 'no-such.leases')], { LEDGER_DATA_DIR: dataDir });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /no such lease file/);
  });
});
