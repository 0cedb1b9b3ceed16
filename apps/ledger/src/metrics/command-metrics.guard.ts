import { deferredWork } from '@ledger/event-store';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { COMMAND_METRIC } from '../http/command-metric.decorator';
import { commandOutcomeOf } from '../http/command-outcome';
import { LedgerMetrics } from './ledger-metrics';

/** `AllocationsController.release` -> `allocations.release`: one name per command endpoint. */
const commandName = (controller: { name: string }, handler: { name: string }): string => {
  const named: unknown = Reflect.getMetadata(COMMAND_METRIC, handler);
  if (typeof named === 'string') return named;
  const resource = controller.name.replace(/Controller$/, '');
  return `${resource.charAt(0).toLowerCase()}${resource.slice(1)}.${handler.name}`;
};

/**
 * Counts and times each command (a non-GET request that passed the access guard), by
 * command and outcome, once its answer has gone out. A guard, not an interceptor: Nest
 * runs an interceptor through rxjs and two async-hook bindings on every request, which
 * cost more than the metric itself (issue 16); a guard is one call. Always lets the
 * request through.
 */
@Injectable()
export class CommandMetricsGuard implements CanActivate {
  constructor(private readonly metrics: LedgerMetrics) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    if (request.method === 'GET' || request.method === 'HEAD') return true;
    const command = commandName(context.getClass(), context.getHandler());
    const startedAt = performance.now();
    const response = http.getResponse<FastifyReply>().raw;
    // 'close' comes after 'finish', and also when the client went away first. Recorded while
    // the writer syncs the next commit (deferred-work.ts); a scrape runs what waits first.
    response.once('close', () => {
      const seconds = (performance.now() - startedAt) / 1000;
      const outcome = commandOutcomeOf(request, response.statusCode);
      deferredWork.defer(() => {
        this.metrics.commands.inc({ command, ...outcome });
        this.metrics.commandDuration.observe({ command, outcome: outcome.outcome }, seconds);
      });
    });
    return true;
  }
}
