/**
 * Invariants 1 and 9 through the real HTTP API: many acquires of one node at once
 * yield exactly one owner; one request sent twice (also at the same moment) is
 * decided once.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { streamEvents, useLedger } from './support/lifecycle';
import { consumer, enlist, newRequestId } from './support/fixtures';
import type { Schema } from './support/answers';

describe('concurrent and repeated commands', () => {
  const started = useLedger();

  const nodeEvents = (nodeId: string) => streamEvents(started().dataDir, `node-${nodeId}`);

  it('30 simultaneous acquires of one node: exactly one wins, 29 are refused with 409, none 5xx', async () => {
    const ledger = started();
    await enlist(ledger, 'contended');
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        ledger.post('/v1/allocations', { requestId: newRequestId(`race${i}`), consumer: consumer('c', `model-${i}`), nodeId: 'contended' }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 409).length, 29, statuses.join(','));
    assert.ok(responses.filter((r) => r.status === 409).every((r) => r.body.code === 'node_unavailable'));
    const acquired = (await nodeEvents('contended')).filter((e) => e.type === 'NodeAcquired');
    assert.equal(acquired.length, 1);
  });

  it('16 different constraint-based acquires racing for 4 nodes: 4 win, 12 hear no_matching_node, none 5xx', async () => {
    const ledger = started();
    for (const id of ['race-a', 'race-b', 'race-c', 'race-d']) await enlist(ledger, id, { zone: 'race' });
    await ledger.get(`/v1/nodes?minPosition=${await ledger.storeHead()}`);
    const responses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        ledger.post('/v1/allocations', { requestId: newRequestId(`zone${i}`), consumer: consumer('c', `z${i}`), constraints: { zone: 'race' } }),
      ),
    );
    const winners = responses.filter((r) => r.status === 201).map((r) => r.body.nodeId);
    assert.deepEqual(winners.sort(), ['race-a', 'race-b', 'race-c', 'race-d']);
    assert.ok(
      responses.filter((r) => r.status !== 201).every((r) => r.status === 409 && r.body.code === 'no_matching_node'),
      responses.map((r) => r.status).join(','),
    );
  });

  it('the same requestId sent twice at the same moment gets the same token and one allocation', async () => {
    const ledger = started();
    await enlist(ledger, 'twice');
    const body = { requestId: newRequestId('dup'), consumer: consumer('c', 'm', '1'), nodeId: 'twice' };
    const [a, b] = await Promise.all([ledger.post('/v1/allocations', body), ledger.post('/v1/allocations', body)]);
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.equal(b.status, 201, JSON.stringify(b.body));
    assert.equal(a.body.token, b.body.token);
    const before = (await nodeEvents('twice')).length;
    const again = await ledger.post('/v1/allocations', body);
    assert.equal(again.body.token, a.body.token);
    assert.equal((await nodeEvents('twice')).length, before, 'a retry appends nothing');
  });

  it('the same requestId sent at once as constraint-based acquires lands on one node only', async () => {
    const ledger = started();
    for (const id of ['pool-a', 'pool-b', 'pool-c', 'pool-d']) await enlist(ledger, id, { zone: 'pool' });
    const body = { requestId: newRequestId('pool'), consumer: consumer('c', 'pool-model'), constraints: { zone: 'pool' } };
    const responses = await Promise.all(Array.from({ length: 8 }, () => ledger.post('/v1/allocations', body)));
    assert.ok(
      responses.every((r) => r.status === 201),
      responses.map((r) => `${r.status} ${JSON.stringify(r.body)}`).join('\n'),
    );
    assert.equal(new Set(responses.map((r) => r.body.token)).size, 1);
    const list = await ledger.get<Schema<'NodeListResponseDto'>>(`/v1/nodes?status=allocated&minPosition=${responses[0].body.position ?? 0}`);
    assert.equal(list.body.nodes.filter((n) => n.zone === 'pool').length, 1);
  });

  it('a constraint-based acquire retried after it took the last matching node answers the same, not no_matching_node', async () => {
    const ledger = started();
    await enlist(ledger, 'last-one', { zone: 'last' });
    await ledger.get(`/v1/nodes?minPosition=${await ledger.storeHead()}`);
    const body = { requestId: newRequestId('last'), consumer: consumer('c', 'last-model'), constraints: { zone: 'last' } };
    const first = await ledger.post('/v1/allocations', body);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    // No node of the zone is free now: the retry must still find its own route and replay.
    await ledger.get(`/v1/nodes?minPosition=${first.body.position}`);
    const again = await ledger.post('/v1/allocations', body);
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.token, first.body.token);
    assert.equal(again.body.nodeId, 'last-one');
    // And a different request for the zone hears that none is left.
    const other = await ledger.post('/v1/allocations', { ...body, requestId: newRequestId('last-other') });
    assert.equal(other.status, 409);
    assert.equal(other.body.code, 'no_matching_node');
  });

  it('the same requestId with a different body is a request_conflict', async () => {
    const ledger = started();
    await enlist(ledger, 'conflicted-1');
    await enlist(ledger, 'conflicted-2');
    const requestId = newRequestId('conflict');
    const first = await ledger.post('/v1/allocations', { requestId, consumer: consumer('c', 'm'), nodeId: 'conflicted-1' });
    assert.equal(first.status, 201);
    const second = await ledger.post('/v1/allocations', { requestId, consumer: consumer('c', 'm'), nodeId: 'conflicted-2' });
    assert.equal(second.status, 409);
    assert.equal(second.body.code, 'request_conflict');
    const other = await ledger.get('/v1/nodes/conflicted-2');
    assert.equal(other.body.status, 'ready');
  });

  it('a release retried with its requestId answers the same and appends nothing', async () => {
    const ledger = started();
    await enlist(ledger, 'released-twice');
    const { body } = await ledger.post('/v1/allocations', { requestId: newRequestId(), consumer: consumer('c', 'm'), nodeId: 'released-twice' });
    const release = { requestId: newRequestId('rel') };
    const first = await ledger.post(`/v1/allocations/${body.token}/release`, release);
    assert.equal(first.status, 200);
    const count = (await nodeEvents('released-twice')).length;
    const second = await ledger.post(`/v1/allocations/${body.token}/release`, release);
    assert.equal(second.status, 200);
    // The same answer, marked as a replay and saying the token has ended (issue 10, item 7).
    assert.deepEqual({ ...second.body, position: null }, { ...first.body, position: null, replayed: true, live: false, ending: { kind: 'released' } });
    assert.equal((await nodeEvents('released-twice')).length, count);
  });
});
