/**
 * Thousands of malformed and adversarial requests against the real server (issue 7,
 * part 4): never a 5xx, never a write from a refused request, still healthy after.
 *
 * After every request the new events in the log are read (a second handle on the same
 * file): a refused or harmless request may only add a refusal record (`refusals-*`)
 * or, for an acquire, the route binding its requestId to its body (`request-*`, written
 * before the node decides so that copies of one request can never land on two nodes).
 * No node or ip stream may change, whatever the answer.
 *
 * LEDGER_SOAK=1 runs ten times as many; LEDGER_FUZZ_SEED=S replays a run (fast-check
 * prints the seed and the shrunk counterexample of a failure).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import fc from 'fast-check';
import { SqliteEventStore, type RecordedEvent } from '@ledger/event-store';
import { LedgerProcess, addKey } from '@ledger/testing';
import { consumer, enlist } from './support/fixtures';
import { rawHttp, type RawRequest, type RawResponse } from './support/raw-http';
import { seedFrom } from './support/seeded-random';
import { doomedAcquire, garbageRequest, mutatedCommand, withSomeKey, wrongReservation, wrongTokenCommand, type FuzzTargets } from './support/hostile-requests';
import type { Acquired, Schema } from './support/answers';

const SCALE = process.env.LEDGER_SOAK === '1' ? 10 : 1;
const seed = seedFrom('LEDGER_FUZZ_SEED');

const describeRequest = (request: RawRequest): string =>
  `${request.method} ${request.path.slice(0, 300)} ${JSON.stringify(request.headers ?? {})} ${String(request.body ?? '').slice(0, 300)}`;

/** Only these may follow a refused request: its refusal record, or an acquire's route. */
const isAuditOrRoute = (event: RecordedEvent): boolean =>
  (event.stream.startsWith('refusals-') && event.type === 'CommandRefused') || (event.stream.startsWith('request-') && event.type === 'AcquireRouted');

describe(`HTTP fuzz (seed ${seed})`, () => {
  let ledger: LedgerProcess;
  let store: SqliteEventStore;
  let seen = 0;
  let domainBefore: string[];
  const statuses = new Map<number, number>();
  let targets: FuzzTargets;

  const domainEvents = async (): Promise<string[]> =>
    (await store.readAll({ maxCount: 1_000_000 })).filter((event) => !isAuditOrRoute(event)).map((event) => `${event.stream}@${event.revision}:${event.id}`);

  /** The events written since the last call. */
  const newEvents = async (): Promise<RecordedEvent[]> => {
    const events = await store.readAll({ fromPosition: seen, maxCount: 100_000 });
    seen = events.at(-1)?.position ?? seen;
    return events;
  };

  const send = async (request: RawRequest): Promise<RawResponse> => {
    const response = await rawHttp(ledger.port, request);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    return response;
  };

  /** The property every generated request must keep. */
  const harmless = async (request: RawRequest): Promise<void> => {
    const response = await send(request);
    assert.ok(
      response.status >= 200 && response.status < 500,
      `${response.status || 'no answer'} (${response.statusLine}) to ${describeRequest(request)}\n${response.text.slice(0, 500)}`,
    );
    const written = (await newEvents()).filter((event) => !isAuditOrRoute(event));
    assert.deepEqual(
      written.map((event) => `${event.stream} ${event.type}`),
      [],
      `${response.status} to ${describeRequest(request)} wrote to the log`,
    );
  };

  const property = (name: string, arbitrary: fc.Arbitrary<RawRequest>, numRuns: number) =>
    it(`${name} (${numRuns * SCALE} requests)`, async () => {
      await fc.assert(fc.asyncProperty(arbitrary, harmless), { numRuns: numRuns * SCALE, seed });
    });

  before(async () => {
    ledger = await LedgerProcess.start({ env: { LEDGER_MAX_BODY_BYTES: '262144' } });
    store = await SqliteEventStore.open({ file: join(ledger.dataDir, 'events.sqlite') });
    const acquire = async (nodeId: string, requestId: string) => {
      const { status, body } = await ledger.post<Acquired>('/v1/allocations', { requestId, consumer: consumer('owner', 'prod', nodeId), nodeId });
      assert.equal(status, 201);
      return body.token as string;
    };
    // Every node is held or reserved, so no valid-looking acquire can win.
    const held = ['fz-held-1', 'fz-held-2', 'fz-held-3', 'fz-released', 'fz-revoked'];
    for (const nodeId of [...held, 'fz-reserved-1', 'fz-reserved-2']) assert.equal((await enlist(ledger, nodeId)).status, 201);
    const endedTokens = [await acquire('fz-released', 'fz-setup-r1')];
    assert.equal((await ledger.post(`/v1/allocations/${endedTokens[0]}/release`, {})).status, 200);
    endedTokens.push(await acquire('fz-revoked', 'fz-setup-r2'));
    assert.equal(
      (await ledger.post('/v1/observations/nodes', { nodeId: 'fz-revoked', providerStatus: 'Ready', observedAt: new Date().toISOString(), source: 'maas' }))
        .body.status,
      'revoked',
    );
    const liveTokens = [];
    for (const [index, nodeId] of held.entries()) liveTokens.push({ nodeId, token: await acquire(nodeId, `fz-setup-${index}`) });
    const reservedNodes = [];
    for (const nodeId of ['fz-reserved-1', 'fz-reserved-2']) {
      const { status, body } = await ledger.post<Schema<'ReserveNodeResponseDto'>>(`/v1/nodes/${nodeId}/reservations`, {
        agentName: 'owner',
        ttlSeconds: 7200,
      });
      assert.equal(status, 201);
      reservedNodes.push({ nodeId, reservationId: body.reservationId, reservationKey: body.reservationKey });
    }
    const keys = {
      operator: ledger.apiKey!,
      consumer: addKey(ledger.dataDir, '--name', 'fuzz-consumer', '--role', 'consumer', '--controller', 'fuzz'),
      provider: addKey(ledger.dataDir, '--name', 'fuzz-provider', '--role', 'provider'),
      auditor: addKey(ledger.dataDir, '--name', 'fuzz-auditor', '--role', 'auditor'),
    };
    // The ledger rereads its keys file at most once a second.
    while ((await ledger.as(keys.auditor).get<Schema<'NodeListResponseDto'>>('/v1/nodes')).status === 401)
      await new Promise((resolve) => setTimeout(resolve, 100));
    targets = {
      heldNodes: held,
      reservedNodes,
      liveTokens,
      endedTokens,
      usedRequestIds: ['fz-setup-r1', 'fz-setup-r2', ...held.map((_, index) => `fz-setup-${index}`)],
      keys,
    };
    const ready = await ledger.get<Schema<'NodeListResponseDto'>>(`/v1/nodes?status=ready&minPosition=${await store.headPosition()}`);
    assert.deepEqual(ready.body.nodes, [], 'no node is free');
    await newEvents();
    domainBefore = await domainEvents();
    console.log(`http-fuzz seed ${seed}: replay with LEDGER_FUZZ_SEED=${seed}`);
  });

  after(async () => {
    console.log(`http-fuzz seed ${seed}: statuses ${JSON.stringify(Object.fromEntries([...statuses.entries()].sort(([a], [b]) => a - b)))}`);
    await store.close();
    await ledger.stop();
    ledger.removeData();
  });

  /** Generators need what `before` set up, so they are built lazily, each request signed by some key. */
  const over = (make: (targets: FuzzTargets) => fc.Arbitrary<RawRequest>) => fc.constant(null).chain(() => withSomeKey(targets, make(targets)));
  property('any method, path, header and body', over(garbageRequest), 1_500);
  property("deployment reports, releases and reads with wrong, stale, forged or other nodes' tokens", over(wrongTokenCommand), 700);
  property('valid-looking acquires that must lose: taken nodes, wrong reservation keys, reused requestIds', over(doomedAcquire), 400);
  property('reservations of taken nodes and cancellations with wrong keys', over(wrongReservation), 300);
  property('every command body broken one way', over(mutatedCommand), 700);

  it('the same requests, 16 at a time, still never a 5xx nor a write', async () => {
    const arbitrary = withSomeKey(
      targets,
      fc.oneof(garbageRequest(targets), wrongTokenCommand(targets), doomedAcquire(targets), wrongReservation(targets), mutatedCommand(targets)),
    );
    const requests = fc.sample(arbitrary, { numRuns: 600 * SCALE, seed });
    for (let start = 0; start < requests.length; start += 16) {
      const batch = requests.slice(start, start + 16);
      const responses = await Promise.all(batch.map(send));
      responses.forEach((response, index) =>
        assert.ok(response.status >= 200 && response.status < 500, `${response.status} to ${describeRequest(batch[index])}`),
      );
    }
    assert.deepEqual(
      (await newEvents()).filter((event) => !isAuditOrRoute(event)).map((event) => `${event.stream} ${event.type}`),
      [],
    );
  });

  it('a minPosition past the head is refused at once, not held until a 503', async () => {
    const started = performance.now();
    const response = await ledger.get<Schema<'NodeResponseDto'>>(`/v1/nodes/fz-held-1?minPosition=${(await store.headPosition()) + 1}`);
    assert.equal(response.status, 400);
    // Held, it would wait LEDGER_READ_WAIT_MS (60 s under LedgerProcess) and answer 503: far
    // beyond this bound, which a busy machine cannot reach by slowness alone.
    assert.ok(performance.now() - started < 30_000);
  });

  it('afterwards: no node stream changed, no error logged, healthy, and a normal release and acquire work', async () => {
    assert.deepEqual(await domainEvents(), domainBefore, 'the node streams are exactly as before the fuzz');
    assert.doesNotMatch(ledger.logs, /"level":50/, 'the server logged no error');
    const health = await ledger.get('/healthz');
    assert.equal(health.status, 200);
    assert.equal(health.body.status, 'ok');
    const { token, nodeId } = targets.liveTokens[0];
    assert.equal((await ledger.post(`/v1/allocations/${token}/release`, {})).status, 200);
    const again = await ledger.post<Acquired>('/v1/allocations', { requestId: 'fz-after', consumer: consumer('fuzz', 'm'), nodeId });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.epoch, 2);
  });
});
