import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { RequestContext } from '../application/request-context';

/** The correlation id (set by the logger middleware) and the acting principal of this request. */
export const Ctx = createParamDecorator((_: unknown, execution: ExecutionContext): RequestContext => {
  const request = execution.switchToHttp().getRequest<Request & { id?: string; principal?: { name: string } }>();
  return { correlationId: String(request.id), actor: request.principal?.name ?? 'anonymous', requestId: null };
});
