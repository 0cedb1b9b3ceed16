import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { LedgerUnavailable, type LedgerAccess } from '../ledger/ledger-access';
import { text, unauthorized, type MaasAnswer } from '../maas/maas-answer';
import type { MaasUpstream } from '../maas/maas-upstream';
import type { FacadeRequest } from '../operations/facade-request';
import { routeRequest } from './facade-router';

const API_ROOT = '/MAAS/api/2.0/';
const SANE_CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Retry-After of a 503: Juju's client waits this long and retries (up to 4 times). */
const RETRY_AFTER_SECONDS = '5';

const correlationIdOf = (request: FastifyRequest): string => {
  const given = request.headers['x-correlation-id'];
  return typeof given === 'string' && SANE_CORRELATION_ID.test(given) ? given : randomUUID();
};

const facadeRequestOf = (request: FastifyRequest, correlationId: string): FacadeRequest | null => {
  const url = new URL(request.url, 'http://facade');
  if (!url.pathname.startsWith(API_ROOT)) return null;
  const path = url.pathname.slice(API_ROOT.length).replace(/\/?$/, '/');
  const body = Buffer.isBuffer(request.body) ? request.body : null;
  const contentType = String(request.headers['content-type'] ?? '');
  const isForm = contentType.startsWith('application/x-www-form-urlencoded');
  return {
    method: request.method,
    path,
    op: url.searchParams.get('op') || null,
    query: url.searchParams,
    form: isForm && body ? new URLSearchParams(body.toString('utf8')) : new URLSearchParams(),
    raw: !isForm && body && body.length > 0 ? { body, contentType } : null,
    correlationId,
  };
};

const send = (reply: FastifyReply, answer: MaasAnswer): FastifyReply => {
  reply.code(answer.status);
  if (answer.json !== undefined) return reply.type('application/json').send(JSON.stringify(answer.json));
  if (answer.text !== undefined) return reply.type('text/plain; charset=utf-8').send(answer.text);
  return reply.send();
};

/** The MAAS 2.0 API under /MAAS/api/2.0/: authenticates each caller's MAAS key as its ledger key, then routes. */
export const buildFacadeServer = (deps: { ledger: LedgerAccess; maas: MaasUpstream; logger: Logger }): FastifyInstance => {
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.all('/*', async (request, reply) => {
    const started = process.hrtime.bigint();
    const correlationId = correlationIdOf(request);
    void reply.header('x-correlation-id', correlationId);
    const facadeRequest = facadeRequestOf(request, correlationId);
    let answer: MaasAnswer;
    try {
      answer = facadeRequest ? await answerOf(deps, facadeRequest, request.headers.authorization) : text(404, 'Not Found');
    } catch (error) {
      const unavailable = error instanceof LedgerUnavailable || (error instanceof TypeError && /fetch failed/.test(error.message));
      deps.logger.error({ correlationId, err: error }, unavailable ? 'ledger or MAAS unavailable' : 'request failed');
      if (unavailable) void reply.header('Retry-After', RETRY_AFTER_SECONDS);
      answer = unavailable ? text(503, 'The provisioning ledger or MAAS is not answering; retry shortly.') : text(500, 'Internal error; see the facade log.');
    }
    deps.logger.info(
      {
        correlationId,
        method: request.method,
        path: facadeRequest?.path,
        op: facadeRequest?.op,
        status: answer.status,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      },
      'request completed',
    );
    return send(reply, answer);
  });
  return app;
};

const answerOf = async (deps: { ledger: LedgerAccess; maas: MaasUpstream; logger: Logger }, request: FacadeRequest, authorization: string | undefined) => {
  // version/ answers without a key, as MAAS's does: it is how a client finds the API.
  if (request.path === 'version/' && request.method === 'GET') return deps.maas.request({ method: 'GET', path: 'version/' });
  const caller = await deps.ledger.authenticate(authorization, request.correlationId);
  if (!caller) return unauthorized();
  return routeRequest({ request, caller, maas: deps.maas, ledger: deps.ledger, logger: deps.logger });
};
