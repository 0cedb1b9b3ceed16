import pino from 'pino';
import { ConfigError, HELP, readConfig } from './facade-config';
import { LedgerAccess } from './ledger/ledger-access';
import { MaasUpstream } from './maas/maas-upstream';
import { buildFacadeServer } from './http/facade-server';
import { MaasWatcher } from './watch/maas-watcher';

/** The MAAS facade: one process beside the ledger, configured by environment and a few flags (--help). */
const main = async (): Promise<number> => {
  let config;
  try {
    config = readConfig(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`maas-facade: ${error instanceof ConfigError || error instanceof TypeError ? error.message : String(error)}\n`);
    return 2;
  }
  if (config === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const logger = pino({ level: config.logLevel, base: { app: 'maas-facade' } });
  const ledger = new LedgerAccess(config.ledgerUrl, config.ledgerApiKey);
  const maas = new MaasUpstream(config.maasUrl, config.maasApiKey);
  const server = buildFacadeServer({ ledger, maas, logger });
  const watcher = new MaasWatcher(maas, ledger, config.pollIntervalMs, logger);
  await server.listen({ port: config.port, host: config.host });
  const address = server.server.address();
  logger.info(
    { port: typeof address === 'object' && address ? address.port : config.port, maas: config.maasUrl, ledger: config.ledgerUrl },
    'maas facade listening',
  );
  watcher.start();
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => resolve());
  });
  watcher.stop();
  await server.close();
  return 0;
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`maas-facade: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
