import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ownerDataOf } from './owner-data';

test('a set_owner_data form is read as MAAS reads it: every field but op, the last value of a repeated key, an empty value kept (it removes the key)', () => {
  const form = new URLSearchParams([
    ['op', 'set_owner_data'],
    ['juju-model-uuid', 'c3f1e0d2'],
    ['juju-machine-id', '86'],
    ['juju-machine-id', '87'],
    ['juju-is-controller', ''],
    ['constructor', 'plain'],
  ]);
  assert.deepEqual(ownerDataOf(form), { 'juju-model-uuid': 'c3f1e0d2', 'juju-machine-id': '87', 'juju-is-controller': '', constructor: 'plain' });
  assert.ok(Object.hasOwn(ownerDataOf(form), 'constructor'), 'a key named like a prototype member is a plain key');
  assert.deepEqual(ownerDataOf(new URLSearchParams()), {});
});
