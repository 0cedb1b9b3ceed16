import { parseArgs } from 'node:util';

export interface FacadeConfig {
  host: string;
  port: number;
  /** The ledger, e.g. http://127.0.0.1:3000 */
  ledgerUrl: string;
  /** The facade's own ledger key (provider role): it enlists MAAS's machines and reports what it observes there. */
  ledgerApiKey: string;
  /** The real MAAS, e.g. http://maas.example:5240/MAAS/ */
  maasUrl: string;
  /** The facade's own MAAS key, `consumer:token:secret`. */
  maasApiKey: string;
  /** How often MAAS's machines are read for out-of-band changes. */
  pollIntervalMs: number;
  logLevel: string;
}

export const HELP = `maas-facade: the MAAS 2.0 API in front of a real MAAS, for Juju's MAAS provider, with
per-allocation instance ids and fencing decided by the provisioning ledger.

usage: node dist/apps/maas-facade/src/main.js [--port N] [--host H] [--poll-ms N]

  --port N      listen port (LEDGER_FACADE_PORT, default 5240)
  --host H      listen address (LEDGER_FACADE_HOST, default 127.0.0.1)
  --poll-ms N   how often MAAS's machines are read for changes made behind the
                facade's back (LEDGER_MAAS_POLL_MS, default 10000)
  --help        this text

environment (required):
  LEDGER_URL            the ledger (default http://127.0.0.1:3000)
  LEDGER_API_KEY        the facade's own ledger key (role provider)
  LEDGER_MAAS_URL       the real MAAS, e.g. http://maas:5240/MAAS/
  LEDGER_MAAS_API_KEY   the facade's own MAAS API key (consumer:token:secret)
  LOG_LEVEL             pino level (default info)

Juju connects with a MAAS cloud whose endpoint is http://HOST:PORT/MAAS and a key from
\`ledger-cli keys add --role consumer --controller NAME --maas-key\`.`;

export class ConfigError extends Error {}

const integer = (name: string, text: string, min: number, max: number): number => {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  return value;
};

const required = (env: NodeJS.ProcessEnv, name: string): string => {
  const value = env[name];
  if (!value) throw new ConfigError(`${name} is required (see --help)`);
  return value;
};

const url = (name: string, text: string): string => {
  if (!/^https?:\/\/[^\s]+$/.test(text)) throw new ConfigError(`${name} must be an http(s) URL, got "${text}"`);
  return text;
};

/** Flags override the environment; anything missing or malformed is a ConfigError naming it. */
export const readConfig = (argv: string[], env: NodeJS.ProcessEnv): FacadeConfig | 'help' => {
  const { values } = parseArgs({
    args: argv,
    options: { port: { type: 'string' }, host: { type: 'string' }, 'poll-ms': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) return 'help';
  const maasApiKey = required(env, 'LEDGER_MAAS_API_KEY');
  if (maasApiKey.split(':').length !== 3) throw new ConfigError('LEDGER_MAAS_API_KEY must be a MAAS API key, consumer:token:secret');
  return {
    host: values.host ?? env.LEDGER_FACADE_HOST ?? '127.0.0.1',
    port: integer('--port / LEDGER_FACADE_PORT', values.port ?? env.LEDGER_FACADE_PORT ?? '5240', 0, 65535),
    ledgerUrl: url('LEDGER_URL', env.LEDGER_URL ?? 'http://127.0.0.1:3000'),
    ledgerApiKey: required(env, 'LEDGER_API_KEY'),
    maasUrl: url('LEDGER_MAAS_URL', required(env, 'LEDGER_MAAS_URL')),
    maasApiKey,
    pollIntervalMs: integer('--poll-ms / LEDGER_MAAS_POLL_MS', values['poll-ms'] ?? env.LEDGER_MAAS_POLL_MS ?? '10000', 50, 3_600_000),
    logLevel: env.LOG_LEVEL ?? 'info',
  };
};
