import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The caller's X-Correlation-Id when it is sane, else a fresh one. Fastify's `genReqId`:
 * it becomes `request.id`, which the logger, the error filter and every event use.
 */
export const correlationIdOf = (request: IncomingMessage): string => {
  const given = request.headers['x-correlation-id'];
  return typeof given === 'string' && ACCEPTABLE.test(given) ? given : randomUUID();
};

/** Every answer says its correlation id, set first so that even a body that cannot be parsed has one. */
export const echoCorrelationId = (fastify: FastifyInstance): void => {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-correlation-id', request.id);
    done();
  });
};
