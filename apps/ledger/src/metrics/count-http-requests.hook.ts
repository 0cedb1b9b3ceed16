import { deferredWork } from '@ledger/event-store';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { onUnroutedResponse } from '../http/ledger-http-adapter';
import type { LedgerMetrics } from './ledger-metrics';

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts and times every response by the route PATTERN it matched (never the raw path: ids
 * and garbage from the network would make the series unbounded); 'unmatched' for a path
 * no route takes. On the response's end, so 400/413 from reading the body are counted
 * too (under the route they were sent to); the time is fastify's, from routing to the end.
 * Recorded while the writer syncs the next commit (deferred-work.ts); a scrape runs what waits first.
 */
export const countHttpRequests = (fastify: FastifyInstance, metrics: LedgerMetrics): void => {
  const count = (request: FastifyRequest, reply: FastifyReply, route: string) => {
    const method = METHODS.has(request.method) ? request.method : 'OTHER';
    const labels = { method, route, status: String(reply.statusCode) };
    const seconds = reply.elapsedTime / 1000;
    deferredWork.defer(() => {
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, seconds);
    });
  };
  fastify.addHook('onResponse', (request, reply, done) => {
    count(request, reply, request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'));
    done();
  });
  onUnroutedResponse(fastify, (request, reply) => count(request, reply, 'unmatched'));
};
