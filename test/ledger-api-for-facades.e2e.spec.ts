/**
 * What a facade in front of a provider (the MAAS facade) asks of the ledger's API: which
 * principal a key is, an acquire that skips nodes the provider refused and avoids tags, an
 * allocation's devices, and a consumer key printed in MAAS's format.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addKey, type LedgerClient } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { useLedger } from './support/lifecycle';
import type { Schema, Acquired } from './support/answers';

describe('the ledger API a facade relies on', () => {
  const started = useLedger();
  let juju: LedgerClient;
  let maasFormatKey: string;
  before(async () => {
    const ledger = started();
    juju = ledger.as(addKey(ledger.dataDir, '--name', 'juju-fair-clouds', '--role', 'consumer', '--controller', 'fair-clouds', '--models', 'a,b'));
    maasFormatKey = addKey(ledger.dataDir, '--name', 'juju-maas', '--role', 'consumer', '--controller', 'fair-clouds', '--maas-key');
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the ledger re-reads the keys file at most once a second
    for (const [nodeId, tags] of [
      ['f-1', ['virtual']],
      ['f-2', []],
      ['f-3', []],
    ] as const)
      await enlist(ledger, nodeId, { tags: [...tags, 'facade'] });
  });

  it('GET /v1/whoami names the key’s principal and its scope; without a key, 401', async () => {
    const ledger = started();
    assert.deepEqual((({ name, role, controller, models }) => ({ name, role, controller, models }))((await juju.get('/v1/whoami')).body), {
      name: 'juju-fair-clouds',
      role: 'consumer',
      controller: 'fair-clouds',
      models: ['a', 'b'],
    });
    const operator = (await ledger.get('/v1/whoami')).body;
    assert.equal(operator.role, 'operator');
    assert.equal(operator.controller, null);
    assert.equal((await ledger.as(null).get('/v1/whoami')).status, 401);
  });

  it('--maas-key prints consumer:token:secret, whose parts rebuild a working ledger key', async () => {
    const ledger = started();
    const [consumerKey, keyId, secret] = maasFormatKey.split(':');
    assert.equal(consumerKey, 'ledger');
    assert.match(keyId, /^[0-9a-f]{12}$/);
    const rebuilt = ledger.as(`lk_${keyId}_${secret}`);
    assert.equal((await rebuilt.get('/v1/whoami')).body.name, 'juju-maas');
  });

  it('an acquire by constraints honours notTags and excludeNodeIds', async () => {
    const picked = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const acquired = await juju.post('/v1/allocations', {
        requestId: newRequestId('facade'),
        consumer: consumer('fair-clouds', 'a'),
        constraints: { tags: ['facade'], notTags: ['virtual'] },
        excludeNodeIds: ['f-3'],
      });
      if (i === 0) {
        assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
        assert.equal(acquired.body.nodeId, 'f-2', 'f-1 is virtual, f-3 excluded');
        picked.add(acquired.body.nodeId);
      } else {
        assert.equal(acquired.status, 409, JSON.stringify(acquired.body));
        assert.equal(acquired.body.code, 'no_matching_node');
      }
    }
    const both = await juju.post('/v1/allocations', {
      requestId: newRequestId('facade'),
      consumer: consumer('fair-clouds', 'a'),
      nodeId: 'f-3',
      excludeNodeIds: ['f-1'],
    });
    assert.equal(both.status, 400);
    const bad = await juju.post('/v1/allocations', {
      requestId: newRequestId('facade'),
      consumer: consumer('fair-clouds', 'a'),
      constraints: {},
      excludeNodeIds: ['no spaces/'],
    });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body), /excludeNodeIds/);
  });

  it('an allocation lists its devices in registration order, each live while it and the allocation are', async () => {
    const acquired = await juju.post<Acquired>('/v1/allocations', { requestId: newRequestId('facade'), consumer: consumer('fair-clouds', 'b'), nodeId: 'f-3' });
    assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
    const token: string = acquired.body.token;
    const first = await juju.post<Schema<'RegisterDeviceResponseDto'>>(`/v1/allocations/${token}/devices`, { hostname: 'lxd-0', mac: '00:16:3e:00:00:10' });
    await juju.post<Schema<'RegisterDeviceResponseDto'>>(`/v1/allocations/${token}/devices`, { hostname: 'lxd-1', mac: '00:16:3e:00:00:11' });
    await juju.post(`/v1/devices/${first.body.deviceId}/remove`, {});
    const listed = (await juju.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${token}`)).body.devices;
    assert.deepEqual(
      listed.map((d: { hostname: string; live: boolean }) => [d.hostname, d.live]),
      [
        ['lxd-0', false],
        ['lxd-1', true],
      ],
    );
    await juju.post(`/v1/allocations/${token}/release`, {});
    assert.deepEqual(
      (await juju.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${token}`)).body.devices.map((d: { live: boolean }) => d.live),
      [false, false],
    );
  });
});
