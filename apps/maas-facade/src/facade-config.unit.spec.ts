import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, readConfig } from './facade-config';

const env = { LEDGER_API_KEY: 'lk_x', LEDGER_MAAS_URL: 'http://maas:5240/MAAS/', LEDGER_MAAS_API_KEY: 'a:b:c' };

test('defaults, flags over the environment, and --help', () => {
  const config = readConfig(['--port', '6000'], { ...env, LEDGER_FACADE_PORT: '5000' });
  assert.ok(config !== 'help');
  assert.equal(config.port, 6000);
  assert.equal(config.ledgerUrl, 'http://127.0.0.1:3000');
  assert.equal(config.pollIntervalMs, 10_000);
  assert.equal(readConfig(['--help'], {}), 'help');
});

test('a missing or malformed setting is an error naming it', () => {
  assert.throws(
    () => readConfig([], { ...env, LEDGER_MAAS_URL: undefined }),
    (e: Error) => e instanceof ConfigError && /LEDGER_MAAS_URL/.test(e.message),
  );
  assert.throws(() => readConfig([], { ...env, LEDGER_MAAS_API_KEY: 'nope' }), /LEDGER_MAAS_API_KEY/);
  assert.throws(() => readConfig(['--poll-ms', 'often'], env), /poll-ms/);
  assert.throws(() => readConfig(['--port', '70000'], env), /port/);
  assert.throws(() => readConfig(['--colour'], env));
});
