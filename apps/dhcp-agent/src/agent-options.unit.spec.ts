import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseAgentOptions, USAGE, UsageError } from './agent-options';

describe('the DHCP agent flags', () => {
  it('--help fits a screen', () => {
    assert.equal(parseAgentOptions(['--help'], {}), null);
    const lines = USAGE.split('\n');
    assert.ok(lines.length <= 24 && lines.every((line) => line.length <= 80), USAGE);
  });

  it('takes the ledger and key from flags first, then the environment, then defaults', () => {
    const fromEnv = parseAgentOptions(['--leases', '/var/lib/kea/kea-leases4.csv'], { LEDGER_URL: 'http://ledger:3000', LEDGER_API_KEY: 'k1' });
    assert.equal(fromEnv?.ledgerUrl, 'http://ledger:3000');
    assert.equal(fromEnv?.apiKey, 'k1');
    assert.equal(fromEnv?.source, 'kea:kea-leases4.csv');
    const fromFlags = parseAgentOptions(['--leases', 'x.csv', '--ledger', 'https://l:1', '--key', 'k2', '--listen', '0.0.0.0:0'], { LEDGER_API_KEY: 'k1' });
    assert.equal(fromFlags?.apiKey, 'k2');
    assert.equal(fromFlags?.listenPort, 0);
    assert.equal(parseAgentOptions(['--leases', 'x.csv'], {})?.ledgerUrl, 'http://127.0.0.1:3000');
  });

  it('reads a .csv name as Kea memfile and anything else as dhcpd.leases, unless --format says', () => {
    assert.equal(parseAgentOptions(['--leases', '/var/lib/dhcp/dhcpd.leases'], {})?.format, 'isc');
    assert.equal(parseAgentOptions(['--leases', '/var/lib/dhcp/dhcpd.leases'], {})?.source, 'isc:dhcpd.leases');
    assert.equal(parseAgentOptions(['--leases', 'kea-leases4.CSV'], {})?.format, 'kea');
    // Kea's DHCPv6 memfile is taken the same way: its header tells the parser the family.
    const v6 = parseAgentOptions(['--leases', '/var/lib/kea/kea-leases6.csv'], {});
    assert.deepEqual([v6?.format, v6?.source], ['kea', 'kea:kea-leases6.csv']);
    assert.equal(parseAgentOptions(['--leases', 'leases.db', '--format', 'kea'], {})?.format, 'kea');
  });

  it('refuses bad flags with a message naming the flag', () => {
    const refused = (argv: string[], pattern: RegExp) =>
      assert.throws(
        () => parseAgentOptions(argv, {}),
        (error: Error) => error instanceof UsageError && pattern.test(error.message),
      );
    refused([], /--leases FILE is required/);
    refused(['--leases', 'x', '--ledger', 'ftp://x'], /--ledger must be an http\(s\) URL/);
    refused(['--leases', 'x', '--listen', 'nowhere'], /--listen must be HOST:PORT/);
    refused(['--leases', 'x', '--poll-ms', 'often'], /--poll-ms must be a whole number/);
    refused(['--leases', 'x', '--what'], /Unknown option '--what'/);
    refused(['--leases', 'x', '--format', 'csv'], /--format must be kea or isc/);
    refused(['--leases', 'x.csv', '--reclaim'], /--reclaim needs --kea-socket PATH/);
    refused(['--leases', 'dhcpd.leases', '--reclaim', '--kea-socket', 's'], /--kea-socket is for Kea/);
    refused(['--leases', 'x.csv', '--reclaim', '--kea-socket', 's', '--reclaim-grace', 'soon'], /--reclaim-grace must be a number of seconds/);
  });

  it('reclaims only when asked, with the socket and a grace in seconds (60 by default)', () => {
    assert.equal(parseAgentOptions(['--leases', 'x.csv'], {})?.reclaim, null);
    assert.deepEqual(parseAgentOptions(['--leases', 'x.csv', '--reclaim', '--kea-socket', '/run/kea/kea4.sock'], {})?.reclaim, {
      keaSocket: '/run/kea/kea4.sock',
      graceMs: 60_000,
    });
    assert.equal(parseAgentOptions(['--leases', 'x.csv', '--reclaim', '--kea-socket', 's', '--reclaim-grace', '1.5'], {})?.reclaim?.graceMs, 1_500);
  });

  it('with ISC dhcpd, --reclaim needs no socket: the agent reports what it would reclaim', () => {
    assert.deepEqual(parseAgentOptions(['--leases', '/var/lib/dhcp/dhcpd.leases', '--reclaim', '--reclaim-grace', '5'], {})?.reclaim, {
      keaSocket: null,
      graceMs: 5_000,
    });
  });
});
