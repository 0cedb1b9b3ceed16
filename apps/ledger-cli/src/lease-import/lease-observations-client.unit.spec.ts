import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerHttpError, LedgerUnreachable, LeaseObservationsClient, retryAfterMs } from './lease-observations-client';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const ok = {
  source: 's',
  received: 1,
  results: [{ ip: '10.0.0.1', mac: '52:54:00:00:00:01', verdict: 'orphaned', reason: 'no owner' }],
  summary: { valid: 0, orphaned: 1, released: 0, unknown: 0 },
  position: 5,
};
const lease = { ip: '10.0.0.1', mac: '52:54:00:00:00:01', state: 'active' as const };

const recordingFetch = (...answers: (Response | Error)[]) => {
  const calls: { url: string; init: RequestInit }[] = [];
  // The typed client hands fetch a Request; recorded here as url and init, as a caller would write them.
  const fetch: typeof globalThis.fetch = async (input) => {
    const request = input instanceof Request ? input : new Request(input);
    const init: RequestInit = { method: request.method, headers: Object.fromEntries(request.headers), body: await request.text() };
    calls.push({ url: request.url, init });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, calls };
};

describe('the lease observations client', () => {
  it('posts {source, leases} as JSON to /v1/observations/leases, with the API key as a bearer token', async () => {
    const { fetch, calls } = recordingFetch(answer(200, ok));
    const client = new LeaseObservationsClient({ url: 'http://ledger.example:3000/', source: 'isc:dhcpd.leases', apiKey: 'lk_abc_secret', fetch });
    assert.deepEqual(await client.post([lease]), ok);
    assert.equal(calls[0].url, 'http://ledger.example:3000/v1/observations/leases');
    assert.equal(calls[0].init.method, 'POST');
    const headers = calls[0].init.headers as Record<string, string>;
    assert.equal(headers.authorization, 'Bearer lk_abc_secret');
    assert.equal(headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(String(calls[0].init.body)), { source: 'isc:dhcpd.leases', leases: [lease] });
  });

  it('sends no authorization header without a key', async () => {
    const { fetch, calls } = recordingFetch(answer(200, ok));
    await new LeaseObservationsClient({ url: 'http://127.0.0.1:3000', source: 's', fetch }).post([lease]);
    assert.equal((calls[0].init.headers as Record<string, string>).authorization, undefined);
  });

  it('keeps a path prefix in the ledger URL', async () => {
    const { fetch, calls } = recordingFetch(answer(200, ok));
    await new LeaseObservationsClient({ url: 'https://proxy.example/ledger', source: 's', fetch }).post([lease]);
    assert.equal(calls[0].url, 'https://proxy.example/ledger/v1/observations/leases');
  });

  it('retries a failed connection (re-posting is safe), then gives up as unreachable', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);
    const recovering = recordingFetch(refused, answer(200, ok));
    assert.deepEqual(await new LeaseObservationsClient({ url: 'http://127.0.0.1:1', source: 's', fetch: recovering.fetch, sleep }).post([lease]), ok);
    assert.deepEqual(slept, [250]);
    const down = recordingFetch(refused, refused, refused);
    await assert.rejects(new LeaseObservationsClient({ url: 'http://127.0.0.1:1', source: 's', fetch: down.fetch, sleep }).post([lease]), (error: unknown) => {
      assert.ok(error instanceof LedgerUnreachable);
      assert.match(error.message, /cannot reach the ledger at http:\/\/127\.0\.0\.1:1\/v1\/observations\/leases: ECONNREFUSED/);
      return true;
    });
    assert.equal(down.calls.length, 3);
  });

  it('waits out a rate limit (429 with Retry-After) and tries again', async () => {
    const slept: number[] = [];
    const { fetch, calls } = recordingFetch(answer(429, { code: 'too_many_requests' }, { 'retry-after': '2' }), answer(200, ok));
    await new LeaseObservationsClient({ url: 'http://127.0.0.1:3000', source: 's', fetch, sleep: async (ms) => void slept.push(ms) }).post([lease]);
    assert.deepEqual(slept, [2000]);
    assert.equal(calls.length, 2);
    assert.equal(retryAfterMs(null), 1000);
    assert.equal(retryAfterMs('600'), 30_000, 'never more than half a minute');
  });

  it('turns any other answer into an error carrying the status and the body', async () => {
    const { fetch } = recordingFetch(answer(403, { code: 'forbidden', message: 'a consumer key may not do this' }));
    await assert.rejects(new LeaseObservationsClient({ url: 'http://127.0.0.1:3000', source: 's', fetch }).post([lease]), (error: unknown) => {
      assert.ok(error instanceof LedgerHttpError);
      assert.equal(error.status, 403);
      assert.equal(error.message, 'the ledger answered 403: a consumer key may not do this');
      return true;
    });
    const notJson = recordingFetch(answer(200, '<html>proxy</html>'));
    await assert.rejects(
      new LeaseObservationsClient({ url: 'http://127.0.0.1:3000', source: 's', fetch: notJson.fetch }).post([lease]),
      /unexpected answer: <html>proxy<\/html>/,
    );
  });
});
