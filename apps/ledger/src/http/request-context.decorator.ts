import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../application/request-context';

/** The correlation id (fastify's request id, see correlation-id.ts) and the acting principal of this request. */
export const Ctx = createParamDecorator((_: unknown, execution: ExecutionContext): RequestContext => {
  const request = execution.switchToHttp().getRequest<FastifyRequest & { principal?: { name: string } }>();
  return { correlationId: String(request.id), actor: request.principal?.name ?? 'anonymous', requestId: null };
});
