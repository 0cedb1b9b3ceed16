import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { destination, pino, type DestinationStream, type Logger } from 'pino';
import type { LedgerConfig } from '../config/ledger-config';
import { deferredWork } from '@ledger/event-store';
import { onUnroutedResponse } from './ledger-http-adapter';
import { gatheringDeferredLines, type DeferredLines } from './deferred-log-lines';

/** The stdout sinks of this process (one, but for tools that build the app again), written out as it exits: one exit listener for all. */
const heldUntilExit = new Set<DeferredLines>();

/** stdout, the request lines held up to `holdMs` to share a write; whatever is held goes out as the process exits. */
const stdoutLines = (holdMs: number): DestinationStream => {
  const lines = gatheringDeferredLines(destination({ dest: 1, sync: true }), deferredWork, holdMs);
  if (heldUntilExit.size === 0) process.on('exit', () => heldUntilExit.forEach((held) => held.flush()));
  heldUntilExit.add(lines);
  return lines;
};

/**
 * The process's one pino logger: fastify's request logger is a child of it, and so is every
 * service's (nestjs-pino). No headers are serialized, so there is nothing to redact (the
 * Authorization and reservation-key headers never reach a log line).
 *
 * Lines are written to stdout synchronously (pino's `sync: true`) on the main thread, where
 * pino's default hands each line to libuv's thread pool and back, two thread wake-ups per
 * request that cost more than the write on a busy machine
 * (bench/results/2026-11-30-http-logging-ab.md). A line is out before the next statement
 * runs, so a crash loses none, except the request lines: written after their answers, while
 * the writer syncs the next commit (logCompleted), they are held up to `logBatchMs`
 * (20 ms) to share a write (deferred-log-lines.ts), and a process killed
 * meanwhile loses them; any exit but a kill writes them. A reader that stops reading slows the
 * server instead of growing an unbounded buffer.
 */
export const createLedgerLogger = (config: Pick<LedgerConfig, 'logLevel' | 'logBatchMs'>, to: DestinationStream = stdoutLines(config.logBatchMs)): Logger =>
  pino(
    {
      level: config.logLevel,
      serializers: {
        req: (request: { method?: string; url?: string }) => ({ method: request.method, url: request.url }),
        res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
      },
    },
    to,
  );

/**
 * `responseTime` in milliseconds, to the microsecond (fastify measures it with hrtime).
 * Written with the server's logger and the correlation id, the fields `request.log` would
 * bind.
 * The fields are taken now and the line made while the writer syncs the next commit, or
 * within a millisecond (deferred-work.ts): its `time` is then, before any holding.
 */
const logCompleted = (request: FastifyRequest, reply: FastifyReply): void => {
  // The serializers shape req and res when the line is written; the time is taken now.
  const fields = { correlationId: request.id, req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 1000) / 1000 };
  const log = request.server.log;
  deferredWork.defer(() => log.info(fields, 'request completed'));
};

/**
 * One line per request ("request completed": correlationId, method, url, status, time), written
 * with the correlation id, as fastify's request logger (`request.log`) would bind it, also for a request
 * refused before routing, which fastify's hooks never see. A request whose client went away
 * before its answer was sent (a live stream closed by its reader) gets "request aborted".
 *
 * Nothing carries the request's logger through its promises (an AsyncLocalStorage would, at the
 * price of promise hooks on every promise in the process): code that logs because of a request
 * names the request's `correlationId` in the line itself, as the exception filter, rebuilds,
 * the storage-fault line, the keys reload and live streams do (test/request-log.e2e.spec.ts).
 */
export const logRequests = (fastify: FastifyInstance): void => {
  fastify.addHook('onResponse', (request, reply, done) => {
    if (!request.raw.aborted) logCompleted(request, reply);
    done();
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    request.server.log.info({ correlationId: request.id, req: request }, 'request aborted');
    done();
  });
  onUnroutedResponse(fastify, logCompleted);
};
