import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IdMap } from './id-map';

const TOKEN = 'eDdrMnBx.2.k3v9QbX2mT0aLw1234';
const map = new IdMap([{ nodeId: 'x7k2pq', token: TOKEN, model: 'm', agentName: null, status: 'allocated' }]);

test("a MAAS answer's ids become the caller's: whole values and path segments, nothing else", () => {
  const machine = {
    system_id: 'x7k2pq',
    resource_uri: '/MAAS/api/2.0/machines/x7k2pq/',
    hostname: 'x7k2pq-host',
    interface_set: [{ resource_uri: '/MAAS/api/2.0/nodes/x7k2pq/interfaces/8/', system_id: 'x7k2pq' }],
    parent: 'r4m8tn',
    count: 3,
    nothing: null,
  };
  assert.deepEqual(map.toCaller(machine), {
    system_id: TOKEN,
    resource_uri: `/MAAS/api/2.0/machines/${TOKEN}/`,
    hostname: 'x7k2pq-host',
    interface_set: [{ resource_uri: `/MAAS/api/2.0/nodes/${TOKEN}/interfaces/8/`, system_id: TOKEN }],
    parent: 'r4m8tn',
    count: 3,
    nothing: null,
  });
});

test("the caller's ids become MAAS's in paths and parameters; unknown ones are left for MAAS to refuse", () => {
  assert.equal(map.pathToMaas(`machines/${TOKEN}/`), 'machines/x7k2pq/');
  const params = new URLSearchParams([
    ['machines', TOKEN],
    ['machines', 'stale-or-foreign'],
    ['parent', TOKEN],
    ['comment', `about ${TOKEN}`],
  ]);
  assert.deepEqual(
    [...map.paramsToMaas(params)],
    [
      ['machines', 'x7k2pq'],
      ['machines', 'stale-or-foreign'],
      ['parent', 'x7k2pq'],
      ['comment', `about ${TOKEN}`],
    ],
  );
  assert.equal(map.maasIdOf(TOKEN), 'x7k2pq');
  assert.equal(map.callerIdOf('x7k2pq'), TOKEN);
  assert.equal(map.maasIdOf('x7k2pq'), undefined, "MAAS's own id is not a caller id");
});
