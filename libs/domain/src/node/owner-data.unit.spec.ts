/**
 * Owner data (Juju's labels on its machine, MAAS's set_owner_data): recorded against the
 * live allocation only, as MAAS keeps it (a key with an empty value is removed), and ended
 * with the allocation. A stale token changes nothing: the fence refuses it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { foldEvents } from '../core';
import { nodeDecider } from './node-decider';
import type { NodeCommand } from './node-commands';
import type { NodeEvent } from './node-events';
import { applyOwnerData, MAX_OWNER_DATA_KEYS, ownerDataChange, ownerDataProblem, type OwnerData } from './owner-data';
import { acquired, at, enlisted, given, NODE, released, tokenOf } from '../lease/testing/lease-fixtures';

const spec = (history: NodeEvent[]) => given(nodeDecider, history);
const setOwnerData = (token: string, ownerData: Record<string, string>): NodeCommand => ({
  type: 'SetOwnerData',
  nodeId: NODE,
  token,
  now: at(20),
  request: null,
  ownerData,
});
const ownerDataSet = (epoch: number, set: Record<string, string>, removed: string[] = []): NodeEvent => ({
  type: 'AllocationOwnerDataSet',
  data: { nodeId: NODE, token: tokenOf(epoch), epoch, set, removed, at: at(20) },
});
const JUJU = { 'juju-model-uuid': 'c3f1e0d2', 'juju-machine-id': '87', 'juju-is-controller': 'true' };

describe('owner data on the live allocation', () => {
  it('is recorded against the allocation and answered whole', () => {
    const reply = spec([enlisted(), acquired(1)])
      .when(setOwnerData(tokenOf(1), JUJU))
      .then([ownerDataSet(1, JUJU)]);
    assert.deepEqual(reply.ownerData, JUJU);
    assert.equal(reply.token, tokenOf(1));
  });

  it('records only what changes: a key set anew, a key removed by an empty value, and nothing for the same data again', () => {
    const history = [enlisted(), acquired(1), ownerDataSet(1, JUJU)];
    const reply = spec(history)
      .when(setOwnerData(tokenOf(1), { 'juju-machine-id': '88', 'juju-is-controller': '', 'juju-model-uuid': 'c3f1e0d2', absent: '' }))
      .then([ownerDataSet(1, { 'juju-machine-id': '88' }, ['juju-is-controller'])]);
    assert.deepEqual(reply.ownerData, { 'juju-model-uuid': 'c3f1e0d2', 'juju-machine-id': '88' });
    const again = spec(history)
      .when(setOwnerData(tokenOf(1), JUJU))
      .thenNothingHappens();
    assert.deepEqual(again.ownerData, JUJU);
  });

  it('refuses a stale token (the machine went to someone else), recorded like every stale command', () => {
    spec([enlisted(), acquired(1), ownerDataSet(1, JUJU), released(1), acquired(2)])
      .when(setOwnerData(tokenOf(1), { 'juju-machine-id': '87' }))
      .thenRefuses('stale_token', { nodeId: NODE, tokenEpoch: 1, currentEpoch: 2 });
  });

  it('ends with the allocation: the next allocation of the node starts with none', () => {
    const state = foldEvents(nodeDecider, [enlisted(), acquired(1), ownerDataSet(1, JUJU), released(1), acquired(2)]);
    assert.deepEqual(state.allocation?.ownerData, {});
  });

  it('refuses bad data as bad input, naming the key, and more keys than an allocation may hold', () => {
    spec([enlisted(), acquired(1)])
      .when(setOwnerData(tokenOf(1), { n: 5 } as unknown as Record<string, string>))
      .thenRefuses('invalid_request');
    const many = Object.fromEntries(Array.from({ length: MAX_OWNER_DATA_KEYS }, (_, i) => [`k${i}`, 'v']));
    spec([enlisted(), acquired(1), ownerDataSet(1, many)])
      .when(setOwnerData(tokenOf(1), { one: 'more' }))
      .thenRefuses('invalid_request');
    spec([enlisted(), acquired(1), ownerDataSet(1, many)])
      .when(setOwnerData(tokenOf(1), { one: 'more', k0: '' }))
      .then([ownerDataSet(1, { one: 'more' }, ['k0'])]);
  });
});

describe('the owner-data rules', () => {
  it('say what is wrong with a change, naming the key', () => {
    assert.equal(ownerDataProblem(JUJU), null);
    assert.equal(ownerDataProblem({}), null);
    assert.match(ownerDataProblem(['a'])!, /object/);
    assert.match(ownerDataProblem({ 'juju-machine-id': 87 })!, /"juju-machine-id" must have a string value/);
    assert.match(ownerDataProblem({ ['k'.repeat(256)]: 'v' })!, /1-255 characters/);
    assert.match(ownerDataProblem({ k: 'v'.repeat(1025) })!, /at most 1024/);
    assert.match(ownerDataProblem({ 'a\u001b[2J': 'v' })!, /control/);
    assert.match(ownerDataProblem(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v'])))!, /at most 64 keys/);
  });

  it('fold any sequence of changes as MAAS keeps owner data: set, overwrite, an empty value removes', () => {
    const key = fc.constantFrom('juju-model-uuid', 'juju-machine-id', 'constructor', 'toString', 'owner');
    const change = fc.dictionary(key, fc.constantFrom('', 'a', 'b'), { maxKeys: 3 });
    fc.assert(
      fc.property(fc.array(change, { maxLength: 12 }), (changes) => {
        const model = new Map<string, string>();
        let held: OwnerData = {};
        for (const sent of changes) {
          for (const [k, v] of Object.entries(sent)) {
            if (v === '') model.delete(k);
            else model.set(k, v);
          }
          const delta = ownerDataChange(held, sent);
          held = applyOwnerData(held, delta);
          assert.deepEqual(ownerDataChange(held, sent), { set: {}, removed: [] }, 'the same change again changes nothing');
        }
        assert.deepEqual(held, Object.fromEntries(model));
      }),
    );
  });
});
