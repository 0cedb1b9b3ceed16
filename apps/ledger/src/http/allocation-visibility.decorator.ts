import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { inScope, type Principal } from '@ledger/access';
import { SEES_EVERY_ALLOCATION, type AllocationVisibility } from '@ledger/projections';

/**
 * Which allocations this request's principal may see in full: a consumer key those in its
 * scope (its controller, and its models if the key names them, as for acting on them); every
 * other role all of them. A request the access guard let through without a principal sees
 * none: the guard sets one on every route that reads allocations.
 */
export const Visibility = createParamDecorator((_: unknown, execution: ExecutionContext): AllocationVisibility => {
  const principal = execution.switchToHttp().getRequest<FastifyRequest & { principal?: Principal }>().principal;
  if (!principal) return () => false;
  return principal.role === 'consumer' ? (consumer) => inScope(principal, consumer) : SEES_EVERY_ALLOCATION;
});
