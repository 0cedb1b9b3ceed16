/**
 * The MAAS facade's other promises, through Juju's own MAAS client where Juju would ask:
 * seed 3 (a machine picked ahead with an agent name is handed to the same agent's Juju and
 * to nobody else), each controller seeing only its own instances, a machine MAAS refuses
 * (taken out of band) skipped for the next, and bad input answered as MAAS would, never 500.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '@ledger/testing';
import { JujuMaasClient } from './support/juju-maas-client/juju-maas-client';
import { useFacadeWorld } from './support/maas-facade-world';
import { rawHttp } from './support/raw-http';
import type { Schema } from './support/answers';

const AGENT = '6f1d0c9e-autopilot-region-1';

/** A raw request to the facade, signed as gomaasapi signs (OAuth 1.0 PLAINTEXT), for what Juju's client would never send. */
const raw = async (facadeUrl: string, maasKey: string | null, method: string, path: string, form?: Record<string, string>) => {
  const headers: Record<string, string> = {};
  if (maasKey) {
    const [consumer, token, secret] = maasKey.split(':');
    headers.authorization = `OAuth oauth_consumer_key="${consumer}", oauth_token="${token}", oauth_signature_method="PLAINTEXT", oauth_signature="${encodeURIComponent(`&${secret}`)}", oauth_nonce="1", oauth_timestamp="1", oauth_version="1.0"`;
  }
  if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const response = await fetch(new URL(`api/2.0/${path}`, facadeUrl), { method, headers, body: form ? new URLSearchParams(form).toString() : undefined });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // MAAS answers most errors in plain text.
  }
  // MAAS's form errors are an object of field names, each with its messages.
  const json = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  return { status: response.status, text, json };
};

describe('the MAAS facade: seed 3, who sees what, MAAS refusals and bad input', { skip: JujuMaasClient.unavailable() ?? false }, () => {
  const started = useFacadeWorld(
    [
      { systemId: 'e1k7ht', hostname: 'elkhart', tags: ['picked'] },
      { systemId: 'd4rb7y', hostname: 'darby', tags: ['gpu'] },
      { systemId: 'a7l4s5', hostname: 'atlas' },
    ],
    { autopilot: 'landscape', landscapeJuju: 'landscape', stranger: 'another-controller' },
  );

  it('seed 3: a machine picked ahead with an agent name goes to that agent’s Juju, and to nobody else in between', async () => {
    const world = started();
    const picked = await world.as('autopilot', 'allocate', { name: 'elkhart', agent_name: AGENT });
    assert.equal(picked.ok, true, JSON.stringify(picked));
    const id = picked.machines![0].systemId;

    const stranger = await world.as('stranger', 'allocate', { name: 'elkhart', agent_name: AGENT });
    assert.equal(stranger.kind, 'no_match', 'another controller gets MAAS’s 409, even naming the same agent');
    const otherModel = await world.as('landscapeJuju', 'allocate', { name: 'elkhart', agent_name: 'some-other-model' });
    assert.equal(otherModel.kind, 'no_match', 'the same controller under another agent name gets 409 too');
    const byConstraints = await world.as('stranger', 'allocate', { tags: 'picked', agent_name: 'x' });
    assert.equal(byConstraints.kind, 'no_match', 'nobody takes it by constraints either');

    const bootstrap = await world.as('landscapeJuju', 'allocate', { name: 'elkhart', agent_name: AGENT });
    assert.equal(bootstrap.ok, true, `juju bootstrap --to elkhart with the agent name gets it: ${JSON.stringify(bootstrap)}`);
    assert.equal(bootstrap.machines![0].systemId, id, 'the same allocation, not a new one');
    const listed = await world.as('landscapeJuju', 'list', { agent_name: AGENT });
    assert.deepEqual(
      listed.machines?.map((m) => m.systemId),
      [id],
    );
  });

  it('a controller sees none of another controller’s instances, and cannot release them', async () => {
    const world = started();
    const mine = (await world.as('autopilot', 'list', { agent_name: AGENT })).machines![0].systemId;
    assert.deepEqual((await world.as('stranger', 'list', { agent_name: AGENT })).machines ?? [], []);
    assert.deepEqual((await world.as('stranger', 'list', { id: mine })).machines ?? [], []);
    assert.deepEqual((await world.as('stranger', 'list', {})).machines ?? [], []);
    const released = await world.as('stranger', 'release', { id: mine });
    assert.notEqual(released.values?.juju, 'credential-invalidated', 'never a 403 for an instance id');
    assert.deepEqual(world.maas.releasesOf('e1k7ht'), []);
    assert.equal((await world.ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${mine}`)).body.live, true);
  });

  it('a machine MAAS refuses (taken out of band) is reported, its allocation ended, and the next one tried', async () => {
    const world = started();
    world.maas.allocateOutOfBand('d4rb7y', 'charlie');
    const alone = await world.as('stranger', 'allocate', { tags: 'gpu', agent_name: 'gpu-model' });
    assert.equal(alone.kind, 'no_match', JSON.stringify(alone));
    assert.equal(world.maas.machines.get('d4rb7y')!.owner, 'charlie', 'MAAS kept it for Charlie');
    // The audit index folds a moment after the answers: polled, not raced.
    await until(async () => {
      const timeline = (await world.ledger.get<Schema<'TimelineResponseDto'>>('/v1/audit/nodes/d4rb7y/timeline')).body.entries as {
        type: string;
        actor: string;
      }[];
      assert.deepEqual(
        timeline.filter((e) => e.type !== 'AcquireRouted').map((e) => [e.type, e.actor]),
        [
          ['NodeEnlisted', 'maas-facade'],
          ['NodeAcquired', 'stranger'],
          ['AllocationRevoked', 'maas-facade'],
        ],
      );
    });

    world.maas.addMachine({ systemId: 'g9pu2x', hostname: 'knoxville', tags: ['gpu'] });
    let next;
    for (let attempt = 0; attempt < 100 && next?.ok !== true; attempt++)
      next = await world.as('stranger', 'allocate', { tags: 'gpu', agent_name: 'gpu-model' });
    assert.equal(next?.machines?.[0].hostname, 'knoxville', JSON.stringify(next));
  });

  it('a machine the watcher revoked before MAAS refused its allocation: the facade adds no release the caller never asked for', async () => {
    const world = started();
    world.maas.addMachine({ systemId: 'w4tch3', hostname: 'wexford', tags: ['fpga'] });
    await until(async () => assert.equal((await world.ledger.get('/v1/nodes/w4tch3')).status, 200));
    const eventsOf = async (minPosition = 0) =>
      (await world.ledger.get<Schema<'AuditEventsResponseDto'>>(`/v1/audit/events?nodeId=w4tch3&minPosition=${minPosition}`)).body.events;
    const answerAllocations = world.maas.holdAllocations();
    const allocating = world.as('stranger', 'allocate', { tags: 'fpga', agent_name: 'fpga-model' });
    try {
      // The ledger has acquired the machine once the facade asks MAAS for it. While MAAS holds its
      // answer, Erin takes the machine, and the watcher sees that and revokes the allocation.
      await until(async () => assert.ok(world.maas.received.some((r) => r.op === 'allocate' && r.form.get('system_id') === 'w4tch3')));
      world.maas.allocateOutOfBand('w4tch3', 'erin');
      await until(async () => assert.ok((await eventsOf()).some((event) => event.type === 'AllocationRevoked')));
    } finally {
      answerAllocations();
    }
    const refused = await allocating;
    assert.equal(refused.kind, 'no_match', JSON.stringify(refused));
    const events = await eventsOf(await world.ledger.storeHead());
    assert.deepEqual(
      events.filter((event) => event.type !== 'AcquireRouted').map((event) => [event.type, event.metadata.actor]),
      [
        ['NodeEnlisted', 'maas-facade'],
        ['NodeAcquired', 'stranger'],
        ['AllocationRevoked', 'maas-facade'],
      ],
    );
  });

  it('a machine re-owned at MAAS behind its holder’s back (never seen Ready) revokes the holder’s token', async () => {
    const world = started();
    const allocated = await world.as('stranger', 'allocate', { agent_name: 'plain-model', not_tags: 'gpu,picked' });
    assert.equal(allocated.machines?.[0].hostname, 'atlas', JSON.stringify(allocated));
    const id = allocated.machines![0].systemId;
    world.maas.allocateOutOfBand('a7l4s5', 'dave');
    await until(async () => {
      const allocation = (await world.ledger.get<Schema<'AllocationResponseDto'>>(`/v1/allocations/${id}`)).body;
      assert.equal(allocation.ending?.kind, 'revoked');
      assert.match(allocation.ending?.source ?? '', /owned at MAAS by dave/);
    });
    assert.deepEqual((await world.as('stranger', 'list', { agent_name: 'plain-model' })).machines ?? [], []);
  });

  it('bad input gets MAAS’s own kind of answer, never a 500', async () => {
    const world = started();
    const key = world.keys.stranger;
    const url = world.facade.url;
    assert.equal((await raw(url, null, 'GET', 'version/')).status, 200, 'version/ answers without a key, as MAAS does');
    assert.equal((await raw(url, null, 'GET', 'users/?op=whoami')).status, 401);
    assert.equal((await raw(url, 'ledger:000000000000:nope-nope-nope-nope', 'GET', 'users/?op=whoami')).status, 401);
    assert.equal((await raw(url, 'garbage', 'GET', 'machines/')).status, 401);
    const unknownOp = await raw(url, key, 'POST', 'machines/?op=frobnicate', {});
    assert.equal(unknownOp.status, 400);
    assert.match(unknownOp.text, /Unrecognised signature/);
    const badNumber = await raw(url, key, 'POST', 'machines/?op=allocate', { cpu_count: 'lots', agent_name: 'm' });
    assert.equal(badNumber.status, 400);
    assert.ok(Array.isArray(badNumber.json?.cpu_count), badNumber.text);
    assert.equal((await raw(url, key, 'GET', 'machines/never-issued/')).status, 404);
    assert.equal((await raw(url, key, 'POST', 'machines/never-issued/?op=deploy', {})).status, 404);
    assert.equal((await raw(url, key, 'POST', 'machines/never-issued/?op=set_owner_data', { 'juju-machine-id': '1' })).status, 404);
    assert.equal((await raw(url, key, 'POST', 'machines/?op=release', { machines: 'never-issued' })).status, 409);
    assert.equal((await raw(url, key, 'POST', 'machines/?op=release', {})).status, 400);
    const orphanDevice = await raw(url, key, 'POST', 'devices/?op=', { parent: 'never-issued', mac_addresses: '00:16:3e:00:00:01' });
    assert.equal(orphanDevice.status, 400);
    assert.ok(Array.isArray(orphanDevice.json?.parent), orphanDevice.text);
    assert.equal((await raw(url, key, 'POST', 'machines/?op=allocate', { name: 'no-such-host', agent_name: 'm' })).status, 409);
    assert.equal((await raw(url, key, 'DELETE', 'devices/nope/')).status, 404);
    assert.equal((await raw(url, key, 'GET', 'nodes/never-issued/interfaces/')).status, 404);
    assert.equal((await raw(url, key, 'GET', '../../etc/passwd')).status, 404);
    // gomaasapi retries a 503 with the header added twice: both lines name the same key.
    const [consumerKey, token, secret] = key.split(':');
    const signed = `OAuth oauth_consumer_key="${consumerKey}", oauth_token="${token}", oauth_signature_method="PLAINTEXT", oauth_signature="%26${secret}"`;
    const twice = await rawHttp(Number(new URL(url).port), {
      method: 'GET',
      path: '/MAAS/api/2.0/users/?op=whoami',
      headers: { host: 'facade', Authorization: signed, authorization: signed },
    });
    assert.equal(twice.status, 200, twice.text);
    assert.doesNotMatch(world.facade.logs, /"status":5\d\d/, 'no request was answered with a 5xx');
  });
});
