/**
 * An allocation's owner data (what Juju sends MAAS as set_owner_data) through the ledger's
 * API: recorded against the live token only, readable with the allocation, told in the
 * node's timeline; a stale token refused and the refusal recorded; bad input a 400 naming
 * the field, with nothing appended. And `pool`: a node enlisted in a pool is picked only by
 * an acquire asking for that pool.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addKey, until, type LedgerClient } from '@ledger/testing';
import { consumer, enlist, newRequestId } from './support/fixtures';
import { useLedger } from './support/lifecycle';
import type { Schema, Acquired, ApiError } from './support/answers';

const JUJU = { 'juju-model-uuid': 'c3f1e0d2-alice', 'juju-controller-uuid': 'fair-clouds-uuid', 'juju-machine-id': '87', 'juju-is-controller': 'true' };

describe("an allocation's owner data, and picking by pool", () => {
  const started = useLedger();
  let alice: LedgerClient;
  let bob: LedgerClient;
  before(async () => {
    const ledger = started();
    alice = ledger.as(addKey(ledger.dataDir, '--name', 'alice', '--role', 'consumer', '--controller', 'fair-clouds'));
    bob = ledger.as(addKey(ledger.dataDir, '--name', 'bob', '--role', 'consumer', '--controller', 'other-clouds'));
    for (const [nodeId, pool] of [
      ['od-1', 'gold'],
      ['od-2', 'bronze'],
      ['od-3', undefined],
    ] as const) {
      const enlisted = await enlist(ledger, nodeId, { tags: ['owner-data'], ...(pool ? { pool } : {}) });
      assert.equal(enlisted.status, 201, JSON.stringify(enlisted.body));
    }
    // The ledger re-reads its keys file at most once a second.
    await until(async () => assert.equal((await alice.get('/v1/whoami')).status, 200));
    await until(async () => assert.equal((await bob.get('/v1/whoami')).status, 200));
  });

  it('an acquire asking for a pool gets a node of that pool, and none when no free node is in it', async () => {
    const ledger = started();
    assert.equal((await ledger.get<Schema<'NodeResponseDto'>>('/v1/nodes/od-1')).body.pool, 'gold');
    assert.equal((await ledger.get<Schema<'NodeResponseDto'>>('/v1/nodes/od-3')).body.pool, null, 'enlisted without a pool: in none');
    const acquire = (constraints: Record<string, unknown>) =>
      alice.post('/v1/allocations', { requestId: newRequestId('pool'), consumer: consumer('fair-clouds', 'm'), constraints });
    const gold = await acquire({ tags: ['owner-data'], pool: 'gold' });
    assert.equal(gold.status, 201, JSON.stringify(gold.body));
    assert.equal(gold.body.nodeId, 'od-1');
    const none = await acquire({ tags: ['owner-data'], pool: 'gold' });
    assert.equal(none.status, 409, JSON.stringify(none.body));
    assert.equal(none.body.code, 'no_matching_node');
    const bad = await acquire({ pool: 'p'.repeat(65) });
    assert.equal(bad.status, 400);
    assert.match(String(bad.body.message), /constraints\.pool/);
    assert.equal((await alice.post(`/v1/allocations/${gold.body.token}/release`, {})).status, 200);
  });

  it('is recorded against the live allocation, answered whole, and read back with the allocation; the same data again appends nothing', async () => {
    const acquired = await alice.post<Acquired>('/v1/allocations', { requestId: newRequestId('od'), consumer: consumer('fair-clouds', 'm'), nodeId: 'od-2' });
    assert.equal(acquired.status, 201, JSON.stringify(acquired.body));
    const token: string = acquired.body.token;
    const set = await alice.post<Schema<'OwnerDataResponseDto'>>(`/v1/allocations/${token}/owner-data`, { ownerData: JUJU });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body.ownerData, JUJU);
    assert.equal(set.body.token, token);
    assert.ok((set.body.position ?? 0) > 0);
    const changed = await alice.post(`/v1/allocations/${token}/owner-data`, { ownerData: { 'juju-is-controller': '', 'juju-machine-id': '88' } });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const expected = { 'juju-model-uuid': JUJU['juju-model-uuid'], 'juju-controller-uuid': JUJU['juju-controller-uuid'], 'juju-machine-id': '88' };
    assert.deepEqual(changed.body.ownerData, expected);
    const again = await alice.post(`/v1/allocations/${token}/owner-data`, { ownerData: { 'juju-machine-id': '88' } });
    assert.equal(again.status, 200);
    assert.equal(again.body.position, null, 'nothing changed, nothing appended');
    const read = await alice.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${token}?minPosition=${changed.body.position}`);
    assert.deepEqual(read.body.ownerData, expected);

    const timeline = await started().get<Schema<'TimelineResponseDto'>>('/v1/audit/nodes/od-2/timeline');
    const lines: string[] = timeline.body.entries
      .filter((e: { type: string }) => e.type === 'AllocationOwnerDataSet')
      .map((e: { summary: string }) => e.summary);
    assert.equal(lines.length, 2, JSON.stringify(timeline.body.entries));
    assert.match(lines[1], /juju-machine-id=88, juju-is-controller removed/);

    // Another controller's key may not label Alice's machine.
    assert.equal((await bob.post(`/v1/allocations/${token}/owner-data`, { ownerData: { x: 'y' } })).status, 403);
    assert.equal((await alice.post(`/v1/allocations/${token}/release`, {})).status, 200);
  });

  it('a stale token is refused (409 stale_token), the refusal recorded, the next holder’s data untouched', async () => {
    const ledger = started();
    const first = await alice.post<Acquired>('/v1/allocations', { requestId: newRequestId('od'), consumer: consumer('fair-clouds', 'm'), nodeId: 'od-3' });
    const stale: string = first.body.token;
    assert.equal((await alice.post(`/v1/allocations/${stale}/release`, {})).status, 200);
    const second = await alice.post('/v1/allocations', { requestId: newRequestId('od'), consumer: consumer('fair-clouds', 'n'), nodeId: 'od-3' });
    assert.equal((await alice.post(`/v1/allocations/${second.body.token}/owner-data`, { ownerData: { 'juju-machine-id': '12' } })).status, 200);

    const refused = await alice.post(`/v1/allocations/${stale}/owner-data`, { ownerData: { 'juju-machine-id': '87' } });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'stale_token');
    assert.deepEqual((await alice.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${second.body.token}`)).body.ownerData, { 'juju-machine-id': '12' });
    await until(async () => {
      const entries: { type: string; token: string | null; summary: string }[] = (
        await ledger.get<Schema<'TimelineResponseDto'>>('/v1/audit/nodes/od-3/timeline')
      ).body.entries;
      const refusal = entries.find((e) => e.type === 'CommandRefused' && e.token === stale);
      assert.ok(refusal, JSON.stringify(entries));
      assert.match(refusal.summary, /SetOwnerData.*stale_token/);
    });
  });

  it('bad input is a 400 naming the field, and appends nothing', async () => {
    const ledger = started();
    const acquired = await alice.post<Acquired>('/v1/allocations', { requestId: newRequestId('od'), consumer: consumer('fair-clouds', 'm'), nodeId: 'od-2' });
    const token: string = acquired.body.token;
    const before = (await ledger.get<Schema<'NodeListResponseDto'>>('/v1/nodes')).body.position;
    const cases: [string, unknown, RegExp][] = [
      ['a number as a value', { ownerData: { 'juju-machine-id': 87 } }, /ownerData.*"juju-machine-id" must have a string value/],
      ['null as a value', { ownerData: { 'juju-machine-id': null } }, /ownerData.*"juju-machine-id"/],
      ['a list instead of an object', { ownerData: ['juju-machine-id'] }, /ownerData.*object/],
      ['too many keys', { ownerData: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v'])) }, /ownerData.*at most 64 keys/],
      ['too long a key', { ownerData: { ['k'.repeat(256)]: 'v' } }, /ownerData.*1-255 characters/],
      ['an empty key', { ownerData: { '': 'v' } }, /ownerData.*1-255 characters/],
      ['too long a value', { ownerData: { k: 'v'.repeat(1025) } }, /ownerData.*at most 1024/],
      ['a control character', { ownerData: { k: 'a\u001b[2J' } }, /ownerData.*control characters/],
      ['no ownerData', {}, /ownerData.*required/],
      ['an unknown field', { ownerData: {}, extra: 1 }, /extra/],
    ];
    for (const [what, body, message] of cases) {
      const answer = await alice.post<ApiError>(`/v1/allocations/${token}/owner-data`, body);
      assert.equal(answer.status, 400, `${what}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      assert.equal(answer.body.code, 'invalid_request', what);
      assert.match(answer.body.message, message, what);
    }
    assert.deepEqual((await alice.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${token}`)).body.ownerData, {});
    assert.equal((await ledger.get<Schema<'NodeListResponseDto'>>('/v1/nodes')).body.position, before, 'nothing was appended');
  });
});
