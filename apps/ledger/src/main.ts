import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadConfig } from './config/ledger-config';
import { openEventStore } from './infrastructure/event-store.factory';
import { systemClock } from './infrastructure/clock';
import { LedgerModule } from './app.module';
import { assignCorrelationId } from './http/correlation-id';
import { jsonBody } from './http/json-body';
import { LedgerMetrics } from './metrics/ledger-metrics';
import { countHttpRequests } from './metrics/count-http-requests.middleware';
import { createOpenApiDocument } from './openapi/openapi-document';
import { serveOpenApi } from './openapi/serve-openapi';
import { keepIdleConnectionsLongerThanClients } from './http/keep-alive';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const store = await openEventStore(config, systemClock);
  const app = await NestFactory.create<NestExpressApplication>(LedgerModule.register({ config, store }), {
    bufferLogs: true,
    bodyParser: false,
  });
  const logger = app.get(Logger);
  app.useLogger(logger);
  // Counted first, so responses from every later stage (parser errors included) are seen.
  app.use(countHttpRequests(app.get(LedgerMetrics)));
  // Correlation ids first, so even a request whose body cannot be parsed has one.
  app.use(assignCorrelationId);
  app.use(...jsonBody(config.maxBodyBytes));
  app.disable('x-powered-by');
  serveOpenApi(app, createOpenApiDocument(app));
  keepIdleConnectionsLongerThanClients(app.getHttpServer(), config.keepAliveTimeoutMs);
  await app.listen(config.port, config.host);
  const { port } = app.getHttpServer().address() as AddressInfo;
  logger.log({ host: config.host, port, store: config.store, dataDir: config.dataDir }, 'ledger listening', 'Bootstrap');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log({ signal }, 'ledger stopping', 'Bootstrap');
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

bootstrap().catch((error: unknown) => {
  const message = error instanceof ConfigError ? `configuration error: ${error.message}` : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
