#!/usr/bin/env node
import pino from 'pino';
import { parseAgentOptions, USAGE, UsageError } from './agent-options';
import { DhcpAgent } from './dhcp-agent';
import { startHealthServer } from './health-server';
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
  const agent = new DhcpAgent(options, log);
  const reclaimer = options.reclaim
    ? new Reclaimer(
        { ledgerUrl: options.ledgerUrl, apiKey: options.apiKey, leases: options.leases, ...options.reclaim, intervalMs: Math.max(options.pollMs, 1_000) },
        log,
      )
    : null;
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
