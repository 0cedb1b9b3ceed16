import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LedgerMetrics } from './ledger-metrics';

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Express middleware counting and timing every response by the route PATTERN it matched (never the
 * raw path: ids and garbage from the network would make the series unbounded).
 * Registered before body parsing, so 400/413 from the parser are counted too.
 */
export const countHttpRequests =
  (metrics: LedgerMetrics) =>
  (request: IncomingMessage & { route?: { path?: unknown } }, response: ServerResponse, next: () => void): void => {
    const stopTimer = metrics.httpDuration.startTimer();
    response.once('finish', () => {
      const route = typeof request.route?.path === 'string' ? request.route.path : 'unmatched';
      const method = METHODS.has(request.method ?? '') ? request.method! : 'OTHER';
      const labels = { method, route, status: String(response.statusCode) };
      metrics.httpRequests.inc(labels);
      stopTimer(labels);
    });
    next();
  };
