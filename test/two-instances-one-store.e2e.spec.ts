/**
 * Two ledger processes share one embedded store file. Fencing and single-winner
 * acquire rest on stream revisions checked inside the store's write transaction, not
 * on any process's memory, which is exactly what an EventStoreDB deployment with
 * several ledger instances relies on.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SqliteEventStore } from '@ledger/event-store';
import { LedgerProcess } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import type { Acquired } from './support/answers';

describe('two ledger instances on one store', () => {
  let a: LedgerProcess;
  let b: LedgerProcess;
  before(async () => {
    const dataDir = LedgerProcess.tempDataDir();
    a = await LedgerProcess.start({ dataDir, env: { LEDGER_READ_MODEL_DIR: join(dataDir, 'instance-a') } });
    b = await LedgerProcess.start({ dataDir, env: { LEDGER_READ_MODEL_DIR: join(dataDir, 'instance-b') } });
  });
  after(async () => {
    await a.stop();
    await b.stop();
    a.removeData();
  });

  const acquiredPerNode = async (): Promise<Map<string, number>> => {
    const store = await SqliteEventStore.open({ file: join(a.dataDir, 'events.sqlite') });
    try {
      const counts = new Map<string, number>();
      for (const event of await store.readAll({ maxCount: 100_000 })) {
        if (event.type === 'NodeAcquired') counts.set(event.stream, (counts.get(event.stream) ?? 0) + 1);
      }
      return counts;
    } finally {
      await store.close();
    }
  };

  it('never hands one node out twice under concurrent acquires split across both', async () => {
    const nodes = Array.from({ length: 8 }, (_, i) => `shared-${i}`);
    for (const nodeId of nodes) await enlist(i(nodeId) % 2 ? a : b, nodeId, { zone: 'shared' });
    // Let both instances' read models see every node, so both pick among all of them.
    const head = await a.storeHead();
    await Promise.all([a.get(`/v1/nodes?minPosition=${head}`), b.get(`/v1/nodes?minPosition=${head}`)]);

    const byName = nodes.flatMap((nodeId) =>
      Array.from({ length: 4 }, (_, k) =>
        (k % 2 ? a : b).post<Acquired>('/v1/allocations', { requestId: newRequestId('named'), consumer: consumer('c', `m${k}`), nodeId }),
      ),
    );
    const byConstraints = Array.from({ length: 24 }, (_, k) =>
      (k % 2 ? a : b).post<Acquired>('/v1/allocations', {
        requestId: newRequestId('any'),
        consumer: consumer('c', `pool${k}`),
        constraints: { zone: 'shared' },
      }),
    );
    const responses = await Promise.all([...byName, ...byConstraints]);
    assert.ok(
      responses.every((r) => r.status === 201 || r.status === 409),
      responses.map((r) => r.status).join(','),
    );
    const winners = responses.filter((r) => r.status === 201).map((r) => r.body.nodeId as string);
    assert.equal(winners.length, nodes.length, 'every node is taken exactly once');
    assert.equal(new Set(winners).size, winners.length, `a node was handed out twice: ${winners.sort().join(',')}`);
    for (const [stream, count] of await acquiredPerNode()) assert.equal(count, 1, `${stream} acquired ${count} times`);
  });

  it('one requestId sent to both at once is decided once', async () => {
    await enlist(a, 'shared-once');
    const body = { requestId: newRequestId('both'), consumer: consumer('c', 'm'), nodeId: 'shared-once' };
    const [fromA, fromB] = await Promise.all([a.post<Acquired>('/v1/allocations', body), b.post<Acquired>('/v1/allocations', body)]);
    assert.equal(fromA.status, 201, JSON.stringify(fromA.body));
    assert.equal(fromB.status, 201, JSON.stringify(fromB.body));
    assert.equal(fromA.body.token, fromB.body.token);
  });

  it('a token released through one instance is fenced on the other', async () => {
    await enlist(a, 'shared-fenced');
    const acquired = await a.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('c', 'm'), nodeId: 'shared-fenced' });
    assert.equal((await a.post(`/v1/allocations/${acquired.body.token}/release`, {})).status, 200);
    const refused = await b.post(`/v1/allocations/${acquired.body.token}/deployed`, {});
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'stale_token');
  });
});

const i = (nodeId: string) => Number(nodeId.split('-').pop());
