/**
 * How a request reaches the API, byte for byte (issue 16 moved the ledger from express to
 * fastify; these are the edge's promises, whatever serves HTTP): compressed JSON bodies are
 * read, a body in another charset or encoding is a coded 400, a body that inflates past the
 * limit is a 413, a body of another type is not parsed, a URL that does not decode is a coded
 * 400, a path parameter of any length reaches the validators, and answers carry no
 * X-Powered-By and no ETag.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess } from '@ledger/testing';
import { rawHttp, type RawResponse } from './support/raw-http';

const LIMIT = 65_536;

/** The JSON body of a raw answer, and its headers by lower-case name. */
const parsed = (response: RawResponse): { headers: Map<string, string>; body: Record<string, unknown> } => {
  const [head, ...rest] = response.text.split('\r\n\r\n');
  const headers = new Map(
    head
      .split('\r\n')
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const text = rest.join('\r\n\r\n');
  return { headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
};

describe('the HTTP edge', () => {
  let ledger: LedgerProcess;
  let auth: Record<string, string>;
  before(async () => {
    ledger = await LedgerProcess.start({ env: { LEDGER_MAX_BODY_BYTES: String(LIMIT) } });
    auth = { authorization: `Bearer ${ledger.apiKey}` };
  });
  after(async () => {
    await ledger.stop();
    ledger.removeData();
  });

  const enlistBody = (nodeId: string) => Buffer.from(JSON.stringify({ nodeId, hostname: `${nodeId}.maas` }));
  const post = (headers: Record<string, string>, body: Buffer, path = '/v1/nodes') =>
    rawHttp(ledger.port, { method: 'POST', path, headers: { ...auth, 'content-type': 'application/json', ...headers }, body });

  for (const [encoding, compress] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const) {
    it(`reads a JSON body sent with Content-Encoding: ${encoding}`, async () => {
      const response = await post({ 'content-encoding': encoding }, compress(enlistBody(`edge-${encoding}`)));
      assert.equal(response.status, 201, response.text);
      assert.equal((await ledger.get(`/v1/nodes/edge-${encoding}`)).status, 200);
    });
  }

  const refusals: { name: string; headers: Record<string, string>; body: Buffer; status: number; mentions: RegExp }[] = [
    {
      name: 'a body that does not inflate as its encoding says',
      headers: { 'content-encoding': 'gzip' },
      body: enlistBody('x'),
      status: 400,
      mentions: /could not be read/,
    },
    {
      name: 'an encoding the ledger does not know',
      headers: { 'content-encoding': 'compress' },
      body: enlistBody('x'),
      status: 400,
      mentions: /Content-Encoding compress/,
    },
    {
      name: 'a charset other than UTF-8',
      headers: { 'content-type': 'application/json; charset=latin1' },
      body: enlistBody('x'),
      status: 400,
      mentions: /UTF-8/,
    },
    {
      name: 'a small gzip body that inflates past the limit',
      headers: { 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.from(`{"nodeId":"x","hostname":"h","tags":["${'a'.repeat(LIMIT * 4)}"]}`)),
      status: 413,
      mentions: new RegExp(`limit is ${LIMIT} bytes`),
    },
    { name: 'a JSON scalar', headers: {}, body: Buffer.from('42'), status: 400, mentions: /not valid JSON/ },
    { name: 'a prototype key', headers: {}, body: Buffer.from('{"nodeId":"x","hostname":"h","__proto__":{"a":1}}'), status: 400, mentions: /__proto__/ },
    {
      name: 'a body of another type, which is not parsed',
      headers: { 'content-type': 'text/plain' },
      body: enlistBody('x'),
      status: 400,
      mentions: /object|nodeId/,
    },
  ];
  for (const refusal of refusals) {
    it(`${refusal.name} -> ${refusal.status}, coded and naming the problem`, async () => {
      const response = await post(refusal.headers, refusal.body);
      assert.equal(response.status, refusal.status, response.text);
      const { headers, body } = parsed(response);
      assert.equal(body.code, refusal.status === 413 ? 'payload_too_large' : 'invalid_request');
      assert.match(String(body.message), refusal.mentions);
      assert.equal(body.correlationId, headers.get('x-correlation-id'));
    });
  }

  it('a URL that does not decode is a coded 400 with a correlation id, the raw bytes not echoed back', async () => {
    const response = await rawHttp(ledger.port, { method: 'GET', path: '/v1/nodes/bad%FFid', headers: { ...auth, 'x-correlation-id': 'edge-bad-url' } });
    assert.equal(response.status, 400, response.text);
    const { headers, body } = parsed(response);
    assert.deepEqual([body.code, body.correlationId, headers.get('x-correlation-id')], ['invalid_request', 'edge-bad-url', 'edge-bad-url']);
    assert.ok(!response.text.includes('%FF'), response.text);
    await ledger.waitForLog(/"correlationId":"edge-bad-url".*"msg":"request completed"/);
  });

  it('a path parameter of any length reaches the validators: a 400 naming it, not a 404', async () => {
    const response = await ledger.get(`/v1/nodes/${'n'.repeat(300)}`);
    assert.equal(response.status, 400, JSON.stringify(response.body));
    assert.match(String(response.body.message), /nodeId/);
  });

  it('a trailing slash names the same route', async () => {
    assert.equal((await ledger.get('/v1/nodes/')).status, 200);
  });

  it('answers carry no X-Powered-By and no ETag', async () => {
    const response = await ledger.get('/v1/nodes');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-powered-by'), null);
    assert.equal(response.headers.get('etag'), null);
  });
});
