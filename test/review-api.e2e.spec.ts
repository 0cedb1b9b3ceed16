/**
 * What the review page reads, over HTTP against the real ledger: per-node, per-model and
 * per-address state at any position (equal to the whole-ledger answer), the paged
 * whole-ledger state, the audit log as Server-Sent Events (filtered, resumable), the
 * page's own headers, and leases found by MAC.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess, addKey, until, type HttpResult } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { buildRegion, type Region } from './support/region';
import type { EventEnvelope, Schema, StateDocument, StateLease, WholeStateDocument, Acquired, ApiError, OwnNode } from './support/answers';

/** Reads a server-sent event stream until `count` events came (or the stream ends). */
const readEvents = async (
  url: string,
  headers: Record<string, string>,
  count: number,
): Promise<{ status: number; contentType: string | null; events: { id: number; data: EventEnvelope }[] }> => {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const events: { id: number; data: EventEnvelope }[] = [];
  if (!response.ok || !response.body) return { status: response.status, contentType: response.headers.get('content-type'), events };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    while (events.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0 && events.length < count) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: ?(\d+)$/m.exec(block)?.[1];
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n');
        if (id && data) events.push({ id: Number(id), data: JSON.parse(data) });
      }
    }
  } finally {
    controller.abort();
  }
  return { status: response.status, contentType: response.headers.get('content-type'), events };
};

describe('the review API', () => {
  let ledger: LedgerProcess;
  let region: Region;
  let head: number;
  const auth = () => ({ authorization: `Bearer ${ledger.apiKey}` });
  before(async () => {
    ledger = await LedgerProcess.start({ env: { LEDGER_SNAPSHOT_EVERY: '7' } });
    region = await buildRegion(ledger, {
      controller: 'landscape',
      model: 'region-a',
      nodeIds: ['n-1', 'n-2'],
      containers: 3,
      hostNet: '10.9.1',
      containerNet: '10.9.2',
      macPrefix: '00:16:3e:0a',
    });
    await enlist(ledger, 'n-3');
    const acquired = await ledger.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('other', 'm', '1'), nodeId: 'n-3' });
    await ledger.post(`/v1/allocations/${acquired.body.token}/deploying`, {});
    await ledger.post('/v1/models/release', { controller: 'landscape', model: 'region-a', force: true });
    // The first address passes to n-3 once the cascade released it.
    await until(
      async () => assert.equal((await ledger.get<Schema<'IpResponseDto'>>(`/v1/leases/${region.containers[0].ip}`)).body.status, 'released'),
      30_000,
      'the cascade',
    );
    const regranted = await ledger.post('/v1/leases', {
      ip: region.containers[0].ip,
      mac: '00:16:3e:0b:00:01',
      owner: { token: acquired.body.token },
      kind: 'dhcp',
    });
    assert.equal(regranted.status, 201, JSON.stringify(regranted.body));
    head = await ledger.storeHead();
    await ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?limit=1&minPosition=${head}`);
  });
  after(async () => {
    await ledger?.stop();
    ledger?.removeData();
  });

  it("a node's state at every position equals the whole-ledger answer about it", async () => {
    for (let position = 1; position <= head; position++) {
      for (const nodeId of ['n-1', 'n-3']) {
        const scoped = await ledger.get<StateDocument>(`/v1/state/nodes/${nodeId}?at=${position}`);
        assert.equal(scoped.status, 200, JSON.stringify(scoped.body));
        const whole = await ledger.get<WholeStateDocument>(`/v1/state?at=${position}&nodeId=${nodeId}&limit=10000`);
        const strip = <T extends object>(items: (T & { lastPosition?: unknown })[]) => items.map(({ lastPosition: _ignored, ...rest }) => rest);
        assert.deepEqual(strip(scoped.body.nodes), whole.body.nodes, `nodes of ${nodeId} at ${position}`);
        assert.deepEqual(strip(scoped.body.allocations), whole.body.allocations, `allocations of ${nodeId} at ${position}`);
        const wholeLeases = whole.body.leases.flatMap((ip) => ip.history).filter((lease) => lease.owner.nodeId === nodeId);
        assert.deepEqual(
          strip(scoped.body.leases)
            .map((l) => [l.leaseId, l.status])
            .sort(),
          wholeLeases.map((l: StateLease) => [l.leaseId, l.status]).sort(),
          `leases of ${nodeId} at ${position}`,
        );
        assert.equal(scoped.body.position, position);
      }
    }
  });

  it('answers by time too, and refuses a bad moment or a position past the head with a 400 naming it', async () => {
    const node = await ledger.get<StateDocument>(`/v1/state/nodes/n-1?at=${encodeURIComponent(new Date().toISOString())}`);
    assert.equal(node.status, 200);
    assert.equal(node.body.allocations[0].status, 'model_released');
    assert.match((await ledger.get<ApiError>('/v1/state/nodes/n-1?at=yesterday')).body.message, /at must be an RFC 3339 date-time/);
    assert.match((await ledger.get<ApiError>(`/v1/state/nodes/n-1?at=${head + 10}`)).body.message, /beyond the log's head/);
    assert.equal((await ledger.get('/v1/state/nodes/n-1?at=1&extra=1')).status, 400);
  });

  it("a model's state holds its nodes, containers and leases; an address's, its owners", async () => {
    const before = await ledger.get(`/v1/state/models/landscape/region-a?at=${head - 60 > 0 ? head - 60 : 1}`);
    assert.equal(before.status, 200);
    const now = await ledger.get<StateDocument>('/v1/state/models/landscape/region-a');
    assert.deepEqual(now.body.nodes.map((n) => n.nodeId).sort(), ['n-1', 'n-2']);
    assert.equal(now.body.devices.length, 3);
    assert.equal(now.body.leases.length, 5);
    assert.ok(now.body.leases.every((lease) => lease.status === 'released'));
    assert.ok(now.body.allocations.every((a) => a.consumer.model === 'region-a'));

    const address = await ledger.get<StateDocument>(`/v1/state/addresses/${region.containers[0].ip}`);
    assert.equal(address.status, 200);
    assert.equal(address.body.address?.status, 'valid');
    assert.deepEqual(
      address.body.address?.history.map((l) => l.status),
      ['valid', 'released'],
    );
    assert.deepEqual(address.body.allocations.map((a) => a.consumer.controller).sort(), ['landscape', 'other']);
  });

  it('the whole-ledger state comes in pages: limit and after walk every entity exactly once', async () => {
    type Page = { next: string | null } & Record<(typeof FIELDS)[number], unknown[]>;
    const FIELDS = ['nodes', 'allocations', 'devices', 'leases'] as const;
    const all = await ledger.get<Page>(`/v1/state?at=${head}&limit=10000`);
    assert.equal(all.body.next, null);
    const seen: Record<(typeof FIELDS)[number], unknown[]> = { nodes: [], allocations: [], devices: [], leases: [] };
    let after: string | null = null;
    let pages = 0;
    do {
      const page: HttpResult<Page> = await ledger.get<Page>(`/v1/state?at=${head}&limit=3${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      const count = FIELDS.reduce((sum, field) => sum + page.body[field].length, 0);
      assert.ok(count <= 3);
      for (const field of FIELDS) seen[field].push(...page.body[field]);
      after = page.body.next;
      pages++;
    } while (after !== null && pages < 100);
    for (const field of FIELDS) assert.deepEqual(seen[field], all.body[field], field);
    assert.ok(pages > 3);
    assert.equal((await ledger.get(`/v1/state?at=${head}&after=bogus`)).status, 400);
    assert.equal((await ledger.get(`/v1/state?at=${head}&limit=0`)).status, 400);
  });

  it('streams the log as server-sent events, filtered like the audit query, resumable with Last-Event-ID', { timeout: 120_000 }, async () => {
    const expected = (await ledger.get<Schema<'AuditEventsResponseDto'>>('/v1/audit/events?nodeId=n-1&limit=1000')).body.events.map((event) => event.position);
    assert.ok(expected.length > 5);
    const streamed = await readEvents(`${ledger.url}/v1/audit/stream?nodeId=n-1&after=0`, auth(), expected.length);
    assert.equal(streamed.status, 200);
    assert.match(streamed.contentType ?? '', /^text\/event-stream/);
    assert.deepEqual(
      streamed.events.map((event) => event.id),
      expected,
    );
    assert.deepEqual(
      streamed.events.map((event) => event.data.position),
      expected,
      'the id is the position of the envelope sent',
    );

    // A client that drops after the third event resumes after it: nothing missed, nothing twice.
    const resumed = await readEvents(`${ledger.url}/v1/audit/stream?nodeId=n-1`, { ...auth(), 'last-event-id': String(expected[2]) }, expected.length - 3);
    assert.deepEqual(
      resumed.events.map((event) => event.id),
      expected.slice(3),
    );

    // Live: events appended after the stream opened arrive, filtered (by model here, through the token's consumer).
    const from = await ledger.storeHead();
    const live = readEvents(`${ledger.url}/v1/audit/stream?controller=other&model=m&after=${from}`, auth(), 3);
    await ledger.post('/v1/nodes/n-1/maintenance', { reason: 'not about model other/m' });
    const n3 = (await ledger.get<OwnNode>('/v1/nodes/n-3')).body.allocation?.token;
    await ledger.post(`/v1/allocations/${n3}/deployed`, {});
    await ledger.post(`/v1/allocations/${n3}/release`, {});
    // The cascade's release names only the lease: the stream attributes it to the lease's owner, so the model sees its address freed.
    assert.deepEqual(
      (await live).events.map((event) => event.data.type),
      ['NodeDeployed', 'AllocationReleased', 'LeaseReleased'],
    );
  });

  it('a bad stream request is a plain 4xx naming the problem, never a 200 stream', async () => {
    for (const [query, pattern] of [
      ['nodeId=not%20a%20node', /nodeId must be a node id/],
      ['limit=5', /limit has no meaning on a stream/],
      ['from=yesterday', /from must be an RFC 3339 date-time/],
    ] as const) {
      const answer = await ledger.get<ApiError>(`/v1/audit/stream?${query}`);
      assert.equal(answer.status, 400, query);
      assert.match(answer.body.message, pattern);
    }
    assert.equal((await ledger.get('/v1/audit/stream', { 'last-event-id': 'abc' })).status, 400);
    assert.equal((await ledger.as(null).get('/v1/audit/stream')).status, 401);
    const consumerKey = addKey(ledger.dataDir, '--name', 'juju', '--role', 'consumer', '--controller', 'landscape');
    await until(async () => assert.equal((await ledger.as(consumerKey).get('/v1/audit/stream')).status, 403), 30_000, 'a consumer key refused');
  });

  it('serves the page and its assets without a key, with a strict CSP; nothing else', async () => {
    const page = await fetch(`${ledger.url}/review`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'; script-src 'self'/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    const html = await page.text();
    assert.doesNotMatch(html, /<script>|<script [^>]*>[^<]/, 'no inline script');
    assert.doesNotMatch(html, /https?:\/\//, 'nothing from elsewhere');
    const script = await fetch(`${ledger.url}/review/assets/review.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    assert.doesNotMatch(await script.text(), /innerHTML|outerHTML|insertAdjacentHTML|document\.write/, 'the page never renders HTML from strings');
    for (const path of ['/review/assets/..%2Fpackage.json', '/review/assets/nope.js', '/review/assets/.env'])
      assert.equal((await fetch(`${ledger.url}${path}`)).status, 404, path);
  });

  it('finds leases by MAC', async () => {
    const found = await ledger.get<Schema<'LeaseListResponseDto'>>(`/v1/leases?mac=${encodeURIComponent(region.containers[1].mac.toUpperCase())}`);
    assert.equal(found.status, 200);
    assert.deepEqual(
      found.body.leases.map((lease) => lease.ip),
      [region.containers[1].ip],
    );
    assert.equal((await ledger.get('/v1/leases?mac=zz')).status, 400);
  });
});

describe('an open event stream and a graceful stop', () => {
  it('the stream ends when the ledger stops, so a browser left open never holds the stop', { timeout: 90_000 }, async () => {
    const ledger = await LedgerProcess.start();
    try {
      const response = await fetch(`${ledger.url}/v1/audit/stream?after=0`, { headers: { authorization: `Bearer ${ledger.apiKey}` } });
      assert.equal(response.status, 200);
      const reader = response.body!.getReader();
      const drained = (async () => {
        for (;;) if ((await reader.read()).done) return 'ended';
      })();
      await ledger.stop();
      assert.equal(await drained, 'ended');
      await ledger.waitForLog(/ledger stopping/);
    } finally {
      await ledger.kill();
      ledger.removeData();
    }
  });
});
