import { type CallHandler, type ExecutionContext, HttpException, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { type Observable, tap } from 'rxjs';
import { storageFaultCodeOf } from '@ledger/event-store';
import { LedgerRefusal } from '../application/ledger-refusal';
import { InvalidInput } from '../application/invalid-input';
import { NotCaughtUp } from '../application/not-caught-up';
import { COMMAND_METRIC } from '../http/command-metric.decorator';
import { LedgerMetrics } from './ledger-metrics';

/** `AllocationsController.release` -> `allocations.release`: one name per command endpoint. */
const commandName = (controller: { name: string }, handler: { name: string }): string => {
  const named: unknown = Reflect.getMetadata(COMMAND_METRIC, handler);
  if (typeof named === 'string') return named;
  const resource = controller.name.replace(/Controller$/, '');
  return `${resource.charAt(0).toLowerCase()}${resource.slice(1)}.${handler.name}`;
};

const outcomeOf = (error: unknown): { outcome: string; code: string } => {
  const storage = storageFaultCodeOf(error);
  if (storage) return { outcome: 'unavailable', code: storage };
  if (error instanceof LedgerRefusal) return { outcome: 'refused', code: error.refusal.code };
  if (error instanceof InvalidInput) return { outcome: 'invalid', code: 'invalid_request' };
  if (error instanceof NotCaughtUp) return { outcome: 'error', code: '503' };
  if (error instanceof HttpException && error.getStatus() < 500) {
    const payload = error.getResponse();
    const code =
      typeof payload === 'object' && payload && typeof (payload as { code?: unknown }).code === 'string'
        ? (payload as { code: string }).code
        : String(error.getStatus());
    return { outcome: 'invalid', code };
  }
  return { outcome: 'error', code: error instanceof HttpException ? String(error.getStatus()) : 'internal_error' };
};

/** Counts what became of each command (accepted, refused with its code, invalid, or error) and times it. */
@Injectable()
export class CommandOutcomeInterceptor implements NestInterceptor {
  constructor(private readonly metrics: LedgerMetrics) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const { method } = context.switchToHttp().getRequest<FastifyRequest>();
    if (method === 'GET' || method === 'HEAD') return next.handle();
    const command = commandName(context.getClass(), context.getHandler());
    const stopTimer = this.metrics.commandDuration.startTimer({ command });
    return next.handle().pipe(
      tap({
        next: () => {
          this.metrics.commands.inc({ command, outcome: 'accepted', code: '' });
          stopTimer({ outcome: 'accepted' });
        },
        error: (error: unknown) => {
          const outcome = outcomeOf(error);
          this.metrics.commands.inc({ command, ...outcome });
          stopTimer({ outcome: outcome.outcome });
        },
      }),
    );
  }
}
