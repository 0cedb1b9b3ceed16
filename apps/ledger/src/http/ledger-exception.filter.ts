import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import type { RefusalCode } from '@ledger/domain';
import { LedgerRefusal } from '../application/ledger-refusal';
import { InvalidInput } from '../application/invalid-input';
import { NotCaughtUp } from '../application/not-caught-up';
import { StorageHealth } from '../infrastructure/storage-health.service';
import { ExpectedUnavailabilityLog } from '../infrastructure/expected-unavailability';
import { LEDGER_CONFIG } from '../infrastructure/injection-tokens';
import type { LedgerConfig } from '../config/ledger-config';
import { bodyReadRefusal } from './json-body';
import { noteCommandFailure } from './command-outcome';

const STATUS_OF_REFUSAL: Partial<Record<RefusalCode, number>> = {
  invalid_request: HttpStatus.BAD_REQUEST,
  not_found: HttpStatus.NOT_FOUND,
  forbidden: HttpStatus.FORBIDDEN,
};

/** Seconds a client is told to wait before asking again after a read wait ran out (it has waited LEDGER_READ_WAIT_MS already). */
const NOT_CAUGHT_UP_RETRY_AFTER_SECONDS = 1;

/**
 * The one place errors become HTTP: refusals are 409 (404 for missing things) with a
 * machine-readable code; bad input is a 4xx naming the problem; anything unexpected
 * is logged with the correlation id and answered without internals. A write the disk
 * refused (full, read-only, a replaced store file) is a 503 with the condition's code and
 * Retry-After: said once in the log by StorageHealth, not per request. The other expected
 * 503s (not ready, a read wait that ran out) are said once per condition too
 * (ExpectedUnavailabilityLog); `error` lines are for what an operator must act on.
 */
@Catch()
export class LedgerExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: PinoLogger,
    private readonly storage: StorageHealth,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly unavailability: ExpectedUnavailabilityLog,
  ) {
    this.logger.setContext(LedgerExceptionFilter.name);
  }

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const correlationId = String(request.id ?? '');
    // A stream (server-sent events) writes to the raw response: fastify's reply never says it was sent.
    const answered = reply.sent || reply.raw.headersSent;
    const fault = this.storage.report(error, 'store', correlationId);
    if (fault) {
      noteCommandFailure(request, { outcome: 'unavailable', code: fault.code });
      if (answered) return;
      const message = `${fault.message}: nothing was written; retry after ${this.config.storageRetryAfterSeconds} s`;
      void reply
        .status(HttpStatus.SERVICE_UNAVAILABLE)
        .header('Retry-After', String(this.config.storageRetryAfterSeconds))
        .send({ code: fault.code, message, statusCode: HttpStatus.SERVICE_UNAVAILABLE, correlationId });
      return;
    }
    const [status, body] = this.toHttp(bodyReadRefusal(error, this.config.maxBodyBytes) ?? error, correlationId);
    noteCommandFailure(request, {
      outcome: error instanceof LedgerRefusal ? 'refused' : status < 500 ? 'invalid' : 'error',
      code: typeof body.code === 'string' ? body.code : String(status),
    });
    if (error instanceof NotCaughtUp) {
      this.unavailability.answered(
        'not_caught_up',
        { correlationId, reason: error.message },
        'a read waited LEDGER_READ_WAIT_MS for the read models and was answered 503',
      );
      if (!answered) void reply.header('Retry-After', String(NOT_CAUGHT_UP_RETRY_AFTER_SECONDS));
    } else if (status >= 500 && body.code !== 'not_ready') this.logger.error({ err: error, correlationId }, 'request failed');
    if (!answered) void reply.status(status).send({ ...body, statusCode: status, correlationId });
  }

  private toHttp(error: unknown, correlationId: string): [number, Record<string, unknown>] {
    if (error instanceof LedgerRefusal) {
      const { code, message, details } = error.refusal;
      const recorded = error.position === null ? {} : { position: error.position };
      return [STATUS_OF_REFUSAL[code] ?? HttpStatus.CONFLICT, { code, message, ...(details ? { details } : {}), ...recorded }];
    }
    if (error instanceof InvalidInput) {
      return [HttpStatus.BAD_REQUEST, { code: 'invalid_request', message: error.message, ...(error.details ? { details: error.details } : {}) }];
    }
    if (error instanceof NotCaughtUp) return [HttpStatus.SERVICE_UNAVAILABLE, { code: 'not_caught_up', message: error.message }];
    if (error instanceof HttpException) {
      const status = error.getStatus();
      const payload = error.getResponse();
      const body = typeof payload === 'string' ? { message: payload } : (payload as Record<string, unknown>);
      return [status, { code: body.code ?? defaultCode(status), message: body.message ?? error.message, ...(body.details ? { details: body.details } : {}) }];
    }
    return [HttpStatus.INTERNAL_SERVER_ERROR, { code: 'internal_error', message: `internal error; quote correlation id ${correlationId}` }];
  }
}

const defaultCode = (status: number): string =>
  ({ 400: 'invalid_request', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 413: 'payload_too_large', 429: 'too_many_requests', 503: 'unavailable' })[
    status
  ] ?? 'error';
