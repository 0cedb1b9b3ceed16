/**
 * What the request log promises (README, "Logs"), whatever writes it: one line per request
 * with its correlation id, method, URL, status and time; every line written while handling a
 * request carries that request's correlation id; a stream its client closes gets its line too.
 */
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addKey, LedgerProcess, until } from '@ledger/testing';
import { useLedger } from './support/lifecycle';

interface LogLine {
  msg: string;
  correlationId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
  [field: string]: unknown;
}

describe('the request log', () => {
  const ledger = useLedger();

  const lines = (): LogLine[] =>
    ledger()
      .logs.split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  const linesOf = (correlationId: string): LogLine[] => lines().filter((line) => line.correlationId === correlationId);

  /**
   * Every line the ledger has written so far, up to and including a request sent now: stdout
   * is one ordered stream, so once this request's own line is in, every earlier one is too.
   */
  const settled = async (): Promise<void> => {
    const marker = `log-marker-${Math.random().toString(36).slice(2)}`;
    await ledger().get('/healthz', { 'x-correlation-id': marker });
    await ledger().waitForLog(new RegExp(`"correlationId":"${marker}".*"msg":"request completed"`));
  };

  it('writes one "request completed" line per request: correlation id, method, URL, status and time', async () => {
    const requests = [
      { id: 'log-get', send: () => ledger().get('/v1/nodes', { 'x-correlation-id': 'log-get' }), method: 'GET', url: '/v1/nodes', status: 200 },
      {
        id: 'log-post',
        send: () => ledger().request('POST', '/v1/nodes', { nodeId: 'log-node', hostname: 'log-node.maas' }, { 'x-correlation-id': 'log-post' }),
        method: 'POST',
        url: '/v1/nodes',
        status: 201,
      },
      {
        id: 'log-missing',
        send: () => ledger().get('/v1/nodes/nobody', { 'x-correlation-id': 'log-missing' }),
        method: 'GET',
        url: '/v1/nodes/nobody',
        status: 404,
      },
      {
        id: 'log-invalid',
        send: () => ledger().request('POST', '/v1/nodes', '{"nodeId":', { 'x-correlation-id': 'log-invalid' }),
        method: 'POST',
        url: '/v1/nodes',
        status: 400,
      },
      { id: 'log-no-key', send: () => ledger().as(null).get('/v1/nodes', { 'x-correlation-id': 'log-no-key' }), method: 'GET', url: '/v1/nodes', status: 401 },
    ];
    for (const request of requests) assert.equal((await request.send()).status, request.status, request.id);
    await settled();
    for (const request of requests) {
      const completed = linesOf(request.id).filter((line) => line.msg === 'request completed');
      assert.equal(completed.length, 1, `one line for ${request.id}: ${JSON.stringify(linesOf(request.id))}`);
      const [line] = completed;
      assert.deepEqual([line.req, line.res], [{ method: request.method, url: request.url }, { statusCode: request.status }], request.id);
      assert.equal(typeof line.responseTime, 'number', request.id);
      assert.ok(line.responseTime! >= 0, request.id);
    }
  });

  it('puts the correlation id on every line written while handling the request, after its answer too', async () => {
    const waited = await ledger().request('POST', '/v1/admin/projections/ledger-view/rebuild?wait=true', {}, { 'x-correlation-id': 'log-rebuild-view' });
    assert.equal(waited.status, 200, JSON.stringify(waited.body));
    // Answered at once (202); the rebuild's last line is written after the answer.
    const started = await ledger().request('POST', '/v1/admin/projections/audit-index/rebuild', {}, { 'x-correlation-id': 'log-rebuild-audit' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    await ledger().waitForLog(/"msg":"audit index rebuild done"/);
    await settled();
    const messages = (correlationId: string) => linesOf(correlationId).map((line) => line.msg);
    assert.deepEqual(messages('log-rebuild-view'), ['rebuild started', 'rebuild done: the new view answers from now on', 'request completed']);
    assert.deepEqual(messages('log-rebuild-audit').sort(), ['audit index rebuild done', 'audit index rebuild started', 'request completed']);
    const unbound = lines().filter((line) => /^(audit index )?rebuild/.test(line.msg) && line.correlationId === undefined);
    assert.deepEqual(unbound, [], 'no rebuild line without the correlation id of the request that asked for it');
  });

  it('names the request for which the keys file was reloaded', async () => {
    const key = addKey(ledger().dataDir, '--name', 'log-reader', '--role', 'operator');
    let attempt = 0;
    // The file is checked at most once a second, by the next request that presents a key: the first to find the new key is that request.
    const accepted = await until(async () => {
      const correlationId = `log-keys-${attempt++}`;
      assert.equal((await ledger().as(key).get('/v1/nodes', { 'x-correlation-id': correlationId })).status, 200);
      return correlationId;
    });
    await settled();
    const reloads = lines().filter((line) => line.msg === 'API keys loaded' && line.keys === 2);
    assert.deepEqual(
      reloads.map((line) => line.correlationId),
      [accepted],
    );
  });

  it('writes "request aborted" for a live stream its client closed', async () => {
    await new Promise<void>((resolve, reject) => {
      const stream = httpRequest(
        {
          host: '127.0.0.1',
          port: ledger().port,
          path: '/v1/audit/stream',
          headers: { authorization: `Bearer ${ledger().apiKey}`, 'x-correlation-id': 'log-stream' },
        },
        (response) => {
          assert.equal(response.statusCode, 200);
          stream.destroy();
          resolve();
        },
      );
      stream.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
      stream.end();
    });
    await ledger().waitForLog(/"correlationId":"log-stream".*"msg":"request aborted"/);
    await settled();
    const stream = linesOf('log-stream');
    assert.deepEqual(
      stream.map((line) => [line.msg, line.req]),
      [['request aborted', { method: 'GET', url: '/v1/audit/stream' }]],
    );
  });
});

describe('the request log at a graceful stop', () => {
  // The default hold, and one far longer than the stop takes: the stop writes what is held.
  for (const batchMs of ['20', '1000'])
    it(`has the line of every request answered before the stop, the last ones included (LEDGER_TEST_LOG_BATCH_MS=${batchMs})`, async () => {
      const ledger = await LedgerProcess.start({ env: { LEDGER_TEST_LOG_BATCH_MS: batchMs } });
      try {
        const correlationIds = Array.from({ length: 12 }, (_, index) => `log-stop-${index}`);
        // Commands and reads in turn, the stop sent as soon as the last is answered: lines wait
        // for the next commit's sync, and after the last answer none comes.
        for (const [index, correlationId] of correlationIds.entries()) {
          const answer =
            index % 2 === 0
              ? await ledger.request(
                  'POST',
                  '/v1/nodes',
                  { nodeId: `stop-node-${index}`, hostname: `stop-node-${index}.maas` },
                  { 'x-correlation-id': correlationId },
                )
              : await ledger.get('/v1/nodes', { 'x-correlation-id': correlationId });
          assert.ok(answer.status === 200 || answer.status === 201, `${correlationId}: ${answer.status}`);
        }
        await ledger.stop();
        const completed = new Set(
          ledger.logs
            .split('\n')
            .filter((line) => line.startsWith('{'))
            .map((line) => JSON.parse(line) as LogLine)
            .filter((line) => line.msg === 'request completed')
            .map((line) => line.correlationId),
        );
        assert.deepEqual(
          correlationIds.filter((correlationId) => !completed.has(correlationId)),
          [],
        );
      } finally {
        ledger.removeData();
      }
    });
});
