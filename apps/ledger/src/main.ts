import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadConfig } from './config/ledger-config';
import { LedgerModule } from './app.module';
import { assignCorrelationId } from './http/correlation-id';
import { jsonBody } from './http/json-body';
import { LedgerMetrics } from './metrics/ledger-metrics';
import { countHttpRequests } from './metrics/count-http-requests.middleware';
import { createOpenApiDocument } from './openapi/document/openapi-document';
import { serveOpenApi } from './openapi/document/serve-openapi';
import { keepIdleConnectionsLongerThanClients } from './http/keep-alive';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.create<NestExpressApplication>(LedgerModule.register({ config }), {
    bufferLogs: true,
    bodyParser: false,
    // A start that fails (a configuration error found while opening the store, such as read
    // models from another store) is rethrown to the catch below, which says it in one line,
    // instead of Nest's own handler logging a stack trace and exiting.
    abortOnError: false,
    logger: false,
  });
  const logger = app.get(Logger);
  app.useLogger(logger);
  // Counted first, so responses from every later stage (parser errors included) are seen.
  app.use(countHttpRequests(app.get(LedgerMetrics)));
  // Correlation ids first, so even a request whose body cannot be parsed has one.
  app.use(assignCorrelationId);
  app.use(...jsonBody(config.maxBodyBytes));
  app.disable('x-powered-by');
  // No ETag: hashing every JSON answer cost CPU on each request and no client revalidates.
  app.set('etag', false);
  serveOpenApi(app, createOpenApiDocument(app));
  keepIdleConnectionsLongerThanClients(app.getHttpServer(), config.keepAliveTimeoutMs);
  // SIGTERM/SIGINT run the modules' shutdown hooks: read models stop and flush, then the
  // infrastructure module closes the read-model database and the store.
  app.enableShutdownHooks();
  await app.listen(config.port, config.host);
  const { port } = app.getHttpServer().address() as AddressInfo;
  logger.log({ host: config.host, port, store: config.store, dataDir: config.dataDir }, 'ledger listening', 'Bootstrap');
}

bootstrap().catch((error: unknown) => {
  const message = error instanceof ConfigError ? `configuration error: ${error.message}` : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
