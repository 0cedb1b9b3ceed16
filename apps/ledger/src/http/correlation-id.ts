import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Correlation-Id when it is sane, else a fresh one; echoed back on the response. */
export const correlationIdFor = (request: IncomingMessage, response: ServerResponse): string => {
  const assigned = (request as { id?: unknown }).id;
  if (typeof assigned === 'string') return assigned;
  const given = request.headers['x-correlation-id'];
  const id = typeof given === 'string' && ACCEPTABLE.test(given) ? given : randomUUID();
  response.setHeader('x-correlation-id', id);
  return id;
};

/** Express middleware: sets `request.id`, which the logger, the error filter and every event use. */
export const assignCorrelationId = (request: IncomingMessage & { id?: string }, response: ServerResponse, next: () => void): void => {
  request.id = correlationIdFor(request, response);
  next();
};
