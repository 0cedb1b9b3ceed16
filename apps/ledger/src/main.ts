import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadConfig } from './config/ledger-config';
import { LedgerModule } from './app.module';
import { ledgerHttpAdapter } from './http/ledger-http-adapter';
import { echoCorrelationId } from './http/correlation-id';
import { createLedgerLogger, logRequests } from './http/http-logging';
import { acceptJsonBodies } from './http/json-body';
import { LedgerMetrics } from './metrics/ledger-metrics';
import { countHttpRequests } from './metrics/count-http-requests.hook';
import { createOpenApiDocument } from './openapi/document/openapi-document';
import { serveOpenApi } from './openapi/document/serve-openapi';
import { keepIdleConnectionsLongerThanClients } from './http/keep-alive';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  // One pino logger for fastify's request logger and every service's (nestjs-pino).
  const pino = createLedgerLogger(config);
  const app = await NestFactory.create<NestFastifyApplication>(LedgerModule.register({ config, logger: pino }), ledgerHttpAdapter(config, pino), {
    bufferLogs: true,
    // Bodies are read by acceptJsonBodies below, with the API's own errors.
    bodyParser: false,
    // A start that fails (a configuration error found while opening the store, such as read
    // models from another store) is rethrown to the catch below, which says it in one line,
    // instead of Nest's own handler logging a stack trace and exiting.
    abortOnError: false,
    logger: false,
  });
  const logger = app.get(Logger);
  app.useLogger(logger);
  const fastify = app.getHttpAdapter().getInstance();
  countHttpRequests(fastify, app.get(LedgerMetrics));
  echoCorrelationId(fastify);
  logRequests(fastify);
  acceptJsonBodies(fastify, config.maxBodyBytes);
  serveOpenApi(app, () => createOpenApiDocument(app));
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
