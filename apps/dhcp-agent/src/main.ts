#!/usr/bin/env node
import pino from 'pino';
import { parseAgentOptions, USAGE, UsageError } from './agent-options';
import { DhcpAgent } from './dhcp-agent';
import { startHealthServer } from './health-server';
import { KeaReclaims } from './kea-reclaims';
import { Reclaimer } from './reclaimer';

const main = async (): Promise<number> => {
  let options;
  try {
    options = parseAgentOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`dhcp-agent: ${error.message}\nRun dhcp-agent --help for the flags.\n`);
    return 2;
  }
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const log = pino({ name: 'dhcp-agent', level: process.env.LOG_LEVEL ?? 'info' });
  const { ledgerUrl, apiKey, source, stateDir, leases, reclaim } = options;
  // Kea frees an address through its control socket; ISC dhcpd has no such channel: the agent reports what it would reclaim there.
  const kea = reclaim?.keaSocket ? new KeaReclaims({ ledgerUrl, apiKey, source, stateDir, leases, keaSocket: reclaim.keaSocket }, log) : null;
  const agent = new DhcpAgent(options, log, kea ? (records, signal) => kea.beforePost(records, signal) : null);
  const server = kea ?? { name: 'dhcpd', serves: (ip: string) => !ip.includes(':'), holder: async (ip: string) => agent.heldAtServer(ip) };
  const reclaimer = reclaim ? new Reclaimer({ ledgerUrl, apiKey, graceMs: reclaim.graceMs, intervalMs: Math.max(options.pollMs, 1_000) }, server, log) : null;
  const stop = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stop.abort());
  let health;
  try {
    health = await startHealthServer(options.listenHost, options.listenPort, () =>
      reclaimer ? { ...agent.health(), reclaim: reclaimer.status() } : agent.health(),
    );
  } catch (error) {
    process.stderr.write(`dhcp-agent: cannot listen on ${options.listenHost}:${options.listenPort}: ${(error as Error).message}\n`);
    return 2;
  }
  log.info({ port: health.port, leases: options.leases, source: options.source, ledger: options.ledgerUrl }, 'dhcp agent listening');
  await Promise.all([agent.run(stop.signal), reclaimer?.run(stop.signal)]);
  health.server.close();
  log.info('dhcp agent stopped');
  return 0;
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`dhcp-agent: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
