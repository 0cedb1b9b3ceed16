/** Nothing acknowledged is lost: stop or kill the ledger, start it on the same data, everything is there. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LedgerProcess } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import type { Acquired, Health, OwnNode } from './support/answers';

describe('restarting on the same data directory', () => {
  for (const how of ['stop', 'kill'] as const) {
    it(`keeps every node, token and refusal after a ${how === 'stop' ? 'graceful stop' : 'SIGKILL'}`, async () => {
      const first = await LedgerProcess.start();
      const dataDir = first.dataDir;
      let ledger = first;
      try {
        await enlist(ledger, 'kept-1');
        await enlist(ledger, 'kept-2');
        const old = await ledger.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('c', 'm', '1'), nodeId: 'kept-1' });
        await ledger.post('/v1/observations/nodes', { nodeId: 'kept-1', providerStatus: 'ready', observedAt: new Date().toISOString(), source: 'maas' });
        const current = await ledger.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('c', 'm2', '2'), nodeId: 'kept-1' });
        const refused = await ledger.post(`/v1/allocations/${old.body.token}/release`, {});
        assert.equal(refused.body.code, 'stale_token');
        const health = await ledger.get<Health>('/healthz');

        await ledger[how]();
        ledger = await LedgerProcess.start({ dataDir });

        const after = await ledger.get<Health>('/healthz');
        assert.equal(after.body.store.head, health.body.store.head, 'the log has exactly what was acknowledged');
        const node = await ledger.get<OwnNode>(`/v1/nodes/kept-1?minPosition=${after.body.store.head}`);
        assert.equal(node.body.allocation?.token, current.body.token);
        assert.equal(node.body.epoch, 2);
        assert.equal((await ledger.get('/v1/nodes/kept-2')).body.status, 'ready');
        const stale = await ledger.get(`/v1/allocations/${old.body.token}`);
        assert.equal(stale.body.current, false);
        // The old token is still fenced after the restart: refused again, and the node untouched.
        const again = await ledger.post(`/v1/allocations/${old.body.token}/release`, {});
        assert.equal(again.body.code, 'stale_token');
        // The next acquire continues the epoch sequence: no token is ever reused.
        await ledger.post(`/v1/allocations/${current.body.token}/release`, {});
        const next = await ledger.post<Acquired>('/v1/allocations', { requestId: newRequestId(), consumer: consumer('c', 'm3'), nodeId: 'kept-1' });
        assert.equal(next.body.epoch, 3);
      } finally {
        await ledger.stop();
        ledger.removeData();
      }
    });
  }
});
