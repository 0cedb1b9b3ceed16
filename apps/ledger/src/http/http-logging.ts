import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import type { Options } from 'pino-http';
import type { LedgerConfig } from '../config/ledger-config';
import { onUnroutedResponse } from './ledger-http-adapter';

/**
 * One line per request ("request completed": correlationId, method, url, status, time),
 * and every log line written while handling it carries the correlationId.
 *
 * Kept lean because it runs on every request (about 9% of the server's CPU under load
 * before, issue 16): no headers are serialized, so there is nothing to redact (the
 * Authorization and reservation-key headers never reach a log line), and the
 * correlationId is bound once (quietReqLogger + customAttributeKeys.reqId) rather than
 * once as req.id and again as a custom prop. The id is fastify's request id (see
 * correlation-id.ts), which fastify's middleware layer copies onto the raw request.
 */
export const httpLoggerOptions = (config: Pick<LedgerConfig, 'logLevel'>): Options => ({
  level: config.logLevel,
  genReqId: (request: IncomingMessage) => String((request as { id?: unknown }).id),
  quietReqLogger: true,
  customAttributeKeys: { reqId: 'correlationId' },
  serializers: {
    req: (request: { method?: string; url?: string }) => ({ method: request.method, url: request.url }),
    res: (response: { statusCode?: number }) => ({ statusCode: response.statusCode }),
  },
});

/** The same line for a request refused before routing, which the request logger (a middleware) never sees. */
export const logUnroutedRequests = (fastify: FastifyInstance): void =>
  onUnroutedResponse(fastify, (request, reply) =>
    PinoLogger.root.info(
      { correlationId: request.id, req: { method: request.method, url: request.url }, res: { statusCode: reply.statusCode }, responseTime: 0 },
      'request completed',
    ),
  );
