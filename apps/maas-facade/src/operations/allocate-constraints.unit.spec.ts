import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAllocate } from './allocate-constraints';

test("Juju's allocate parameters map onto the ledger's constraints, pool and zone included; the rest are forwarded for MAAS to check", () => {
  const form = new URLSearchParams([
    ['arch', 'amd64/generic'],
    ['cpu_count', '4'],
    ['mem', '8192.5'],
    ['tags', 'ssd,fast'],
    ['tags', 'rack-1'],
    ['not_tags', 'virtual'],
    ['zone', 'az1'],
    ['pool', 'gold'],
    ['agent_name', 'model-uuid'],
    ['storage', 'root:32'],
    ['name', 'elkhart'],
  ]);
  const parsed = parseAllocate(form);
  assert.ok(!('errors' in parsed));
  assert.deepEqual(parsed.constraints, {
    arch: 'amd64',
    minCpu: 4,
    minMemoryMb: 8193,
    tags: ['ssd', 'fast', 'rack-1'],
    notTags: ['virtual'],
    zone: 'az1',
    pool: 'gold',
  });
  assert.equal(parsed.name, 'elkhart');
  assert.equal(parsed.agentName, 'model-uuid');
  assert.equal(parsed.forwarded.get('pool'), 'gold', 'MAAS checks it again on the picked machine');
  assert.equal(parsed.forwarded.get('storage'), 'root:32');
  assert.equal(parsed.forwarded.has('name'), false, 'the machine is named to MAAS by the system_id the ledger picked');
});

test('a malformed number is a field error, as MAAS answers a bad form', () => {
  const parsed = parseAllocate(
    new URLSearchParams([
      ['cpu_count', 'lots'],
      ['mem', '-1'],
    ]),
  );
  assert.ok('errors' in parsed);
  assert.deepEqual(Object.keys(parsed.errors).sort(), ['cpu_count', 'mem']);
  const long = parseAllocate(new URLSearchParams([['pool', 'p'.repeat(65)]]));
  assert.ok('errors' in long && long.errors.pool, 'a pool name the ledger would refuse is a field error here');
  const dryRun = parseAllocate(new URLSearchParams([['dry_run', 'true']]));
  assert.ok('errors' in dryRun && dryRun.errors.dry_run, 'a dry run would hold a machine MAAS never allocated');
});
