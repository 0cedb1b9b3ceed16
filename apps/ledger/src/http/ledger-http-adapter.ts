import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { LedgerConfig } from '../config/ledger-config';
import { correlationIdOf } from './correlation-id';

export type UnroutedResponseListener = (request: FastifyRequest, reply: FastifyReply) => void;

const unroutedListeners = new WeakMap<FastifyInstance, UnroutedResponseListener[]>();

/**
 * Told of every response to a request refused before routing (a URL whose
 * percent-encoding does not decode): fastify runs none of its hooks for those, so the
 * request counter and the request log line listen here as well.
 */
export const onUnroutedResponse = (fastify: FastifyInstance, listener: UnroutedResponseListener): void => {
  unroutedListeners.set(fastify, [...(unroutedListeners.get(fastify) ?? []), listener]);
};

/**
 * The HTTP server under Nest: fastify (issue 16: about a third less CPU per request on
 * the main thread than express with its body parser; figures in the README).
 *
 * - the request id is the correlation id (the caller's X-Correlation-Id when sane), and the
 *   request's logger (`request.log`, a child of the ledger's pino logger) is
 *   bound to it as `correlationId`; fastify's own two lines per request are off
 *   (http-logging.ts writes one);
 * - a path parameter may be as long as a URL: fastify's default of 100 characters would
 *   answer a long token or node id with a 404 instead of the validators' 400 naming it;
 * - `/v1/nodes/` is `/v1/nodes`, as it was;
 * - a URL that does not decode is the API's coded 400 with its correlation id (the raw
 *   path is not echoed back: it is whatever bytes the client sent).
 * Fastify sends no X-Powered-By and no ETag.
 */
export const ledgerHttpAdapter = (config: Pick<LedgerConfig, 'maxBodyBytes' | 'keepAliveTimeoutMs'>, logger: Logger): FastifyAdapter => {
  const adapter = new FastifyAdapter({
    genReqId: correlationIdOf,
    loggerInstance: logger,
    requestIdLogLabel: 'correlationId',
    disableRequestLogging: true,
    // No Nest middleware runs (the request log is a fastify hook), so no middleware layer.
    skipMiddie: true,
    bodyLimit: config.maxBodyBytes,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Node's own default, which fastify would turn off (0): a request still arriving after 5 minutes is cut.
    requestTimeout: 300_000,
    maxParamLength: 16_384,
    ignoreTrailingSlash: true,
    frameworkErrors: (_error: Error, request: FastifyRequest, reply: FastifyReply) => {
      reply.raw.once('finish', () => unroutedListeners.get(request.server)?.forEach((listener) => listener(request, reply)));
      void reply.status(400).header('x-correlation-id', request.id).send({
        code: 'invalid_request',
        message: 'the request path is not valid: its percent-encoding does not decode',
        statusCode: 400,
        correlationId: request.id,
      });
    },
  });
  return adapter;
};
