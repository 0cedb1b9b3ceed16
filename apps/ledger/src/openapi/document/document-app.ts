import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfig } from '../../config/ledger-config';
import { LedgerModule } from '../../app.module';

/**
 * The ledger's Nest application on a throwaway data directory, never listening: enough
 * to generate the OpenAPI document (the build does) and to list the routes it serves.
 */
export const withDocumentApp = async <T>(use: (app: NestExpressApplication) => Promise<T>, options: { init?: boolean } = {}): Promise<T> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-openapi-'));
  const config = loadConfig({ LEDGER_DATA_DIR: dataDir, LOG_LEVEL: 'silent', LEDGER_LEASE_CASCADE: 'off' });
  const app = await NestFactory.create<NestExpressApplication>(LedgerModule.register({ config }), { logger: false, bodyParser: false });
  try {
    if (options.init) await app.init();
    return await use(app);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
};
