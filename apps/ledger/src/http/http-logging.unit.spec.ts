import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deferredWork } from '@ledger/event-store';
import { createLedgerLogger, logRequests } from './http-logging';
import { ledgerHttpAdapter } from './ledger-http-adapter';
import type { LedgerConfig } from '../config/ledger-config';

/** The ledger's own fastify instance (its adapter, its logger, its request log), answering one route, its log lines kept. */
const serverLoggingAt = (logLevel: LedgerConfig['logLevel']) => {
  const lines: Record<string, unknown>[] = [];
  const logger = createLedgerLogger({ logLevel, logBatchMs: 0 }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const fastify = ledgerHttpAdapter({ maxBodyBytes: 1024, keepAliveTimeoutMs: 5000 }, logger).getInstance();
  logRequests(fastify);
  fastify.get('/v1/things', async () => ({ things: [] }));
  fastify.get('/v1/noisy', async (request) => {
    request.log.warn({ why: 'told to' }, 'a route that logs');
    return {};
  });
  return { fastify, lines };
};

describe('the request log and LOG_LEVEL', () => {
  it('at info, writes one line per request: correlation id, method, URL, status, time', async () => {
    const { fastify, lines } = serverLoggingAt('info');
    const answer = await fastify.inject({ method: 'GET', url: '/v1/things?page=2', headers: { 'x-correlation-id': 'unit-1' } });
    // The line is written while the writer syncs the next commit, or after a millisecond: now, here.
    deferredWork.runNow();
    assert.equal(answer.statusCode, 200);
    const requestLines = lines.filter((line) => line.correlationId === 'unit-1');
    assert.equal(requestLines.length, 1, JSON.stringify(lines));
    const [line] = requestLines;
    assert.deepEqual([line.level, line.msg, line.req, line.res], [30, 'request completed', { method: 'GET', url: '/v1/things?page=2' }, { statusCode: 200 }]);
    assert.equal(typeof line.responseTime, 'number');
    await fastify.close();
  });

  it("binds a request's own logger to its correlation id", async () => {
    const { fastify, lines } = serverLoggingAt('info');
    assert.equal((await fastify.inject({ method: 'GET', url: '/v1/things', headers: { 'x-correlation-id': 'unit-3' } })).statusCode, 200);
    assert.equal((await fastify.inject({ method: 'GET', url: '/v1/noisy', headers: { 'x-correlation-id': 'unit-4' } })).statusCode, 200);
    // The line is written while the writer syncs the next commit, or after a millisecond: now, here.
    deferredWork.runNow();
    const noisy = lines.filter((line) => line.correlationId === 'unit-4').map((line) => [line.level, line.msg, line.why]);
    assert.deepEqual(noisy, [
      [40, 'a route that logs', 'told to'],
      [30, 'request completed', undefined],
    ]);
    assert.deepEqual(
      lines.filter((line) => line.correlationId === 'unit-3').map((line) => line.msg),
      ['request completed'],
    );
    await fastify.close();
  });

  it('at warn, writes none', async () => {
    const { fastify, lines } = serverLoggingAt('warn');
    assert.equal((await fastify.inject({ method: 'GET', url: '/v1/things', headers: { 'x-correlation-id': 'unit-2' } })).statusCode, 200);
    assert.equal((await fastify.inject({ method: 'GET', url: '/v1/nothing-here' })).statusCode, 404);
    // What was deferred is written by now: nothing.
    deferredWork.runNow();
    assert.deepEqual(lines, []);
    await fastify.close();
  });
});
