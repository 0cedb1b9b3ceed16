import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '../../config/ledger-config';
import { LedgerModule } from '../../app.module';
import { ledgerHttpAdapter } from '../../http/ledger-http-adapter';
import { createLedgerLogger } from '../../http/http-logging';

/** A route as the HTTP server registered it: `GET /v1/nodes/:nodeId`. */
export type ServedRoute = `${string} ${string}`;

/**
 * The ledger's Nest application on a throwaway data directory, never listening: enough
 * to generate the OpenAPI document (the build does) and to list the routes it serves
 * (every route fastify registered once the app is initialised, HEAD routes included).
 */
export const withDocumentApp = async <T>(
  use: (app: NestFastifyApplication, served: readonly ServedRoute[]) => Promise<T>,
  options: { init?: boolean } = {},
): Promise<T> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-openapi-'));
  const config = loadConfig({ LEDGER_DATA_DIR: dataDir, LOG_LEVEL: 'silent', LEDGER_LEASE_CASCADE: 'off' });
  const logger = createLedgerLogger(config);
  const app = await NestFactory.create<NestFastifyApplication>(LedgerModule.register({ config, logger }), ledgerHttpAdapter(config, logger), {
    logger: false,
    bodyParser: false,
  });
  const served: ServedRoute[] = [];
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) served.push(`${method} ${route.url}`);
    });
  try {
    if (options.init) await app.init();
    return await use(app, served);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
};
