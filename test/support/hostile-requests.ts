/**
 * fast-check generators of malformed and adversarial HTTP requests, built over what a
 * fuzz run set up (nodes, live and ended tokens, reservations). Every request they make
 * must be refused or harmless: none names a free node, a live token as is, or a
 * reservation with its own key, so a 2xx that changes a node would be a real bug.
 * The bodies they carry are hostile-bodies.ts's; the tokens, hostile-tokens.ts's.
 */
import fc from 'fast-check';
import type { RawRequest } from './raw-http';
import { anyBody, hostileValue, jsonBody, JSON_TYPE, PROTOTYPE_KEYS } from './hostile-bodies';
import { wrongToken } from './hostile-tokens';

export interface FuzzTargets {
  /** Nodes held by a live allocation (none is free, so no acquire can win). */
  heldNodes: string[];
  reservedNodes: { nodeId: string; reservationId: string; reservationKey: string }[];
  liveTokens: { token: string; nodeId: string }[];
  endedTokens: string[];
  /** requestIds the set-up used for its acquires. */
  usedRequestIds: string[];
  /** API keys by role; the consumer key is scoped to controller `fuzz`, the set-up's allocations belong to `owner`. */
  keys: { operator: string; consumer: string; provider: string; auditor: string };
}

/**
 * Who sends it: mostly the operator (so requests reach the handlers), else another role
 * (a consumer acting on another controller's allocations is denied: 403, recorded), no
 * key, a wrong key, or a malformed Authorization header.
 */
export const withSomeKey = (targets: FuzzTargets, requests: fc.Arbitrary<RawRequest>): fc.Arbitrary<RawRequest> => {
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const auth = fc.oneof(
    { weight: 6, arbitrary: fc.constant(bearer(targets.keys.operator)) },
    { weight: 2, arbitrary: fc.constant(bearer(targets.keys.consumer)) },
    { weight: 1, arbitrary: fc.constantFrom(bearer(targets.keys.provider), bearer(targets.keys.auditor)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        {},
        bearer(`${targets.keys.operator}x`),
        bearer('lk_nope.nope'),
        { authorization: 'Basic b3A6b3A=' },
        { authorization: `Bearer ${'k'.repeat(500)}` },
        { authorization: 'Bearer' },
      ),
    },
  );
  return fc.tuple(requests, auth).map(([request, headers]) => ({ ...request, headers: { ...headers, ...request.headers } }));
};

const SEGMENTS = [
  'v1',
  'nodes',
  'allocations',
  'reservations',
  'models',
  'release',
  'observations',
  'reconcile',
  'healthz',
  'metrics',
  'deploying',
  'deployed',
  'failed',
  'owner-data',
  'audit',
  'state',
  'leases',
  'devices',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '%FF',
  '%',
  '%zz',
  '%00',
  '%C0%AE',
  '%E0%A4%A',
  '',
  '*',
];

const queryString = fc
  .array(
    fc.tuple(
      fc.constantFrom('minPosition', 'status', 'at', 'limit', 'after', '__proto__', 'x'),
      fc.oneof(fc.constantFrom('-1', '1e3', '99999999999999999999', '0x10', 'ready', '', '%FF', '[]', '1&minPosition=2'), fc.nat().map(String)),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length ? `?${pairs.map(([key, value]) => `${key}=${value}`).join('&')}` : ''));

/** 1. Anything at all: methods, paths (traversal, huge, unicode, broken percent-encoding), headers, bodies. */
export const garbageRequest = (targets: FuzzTargets): fc.Arbitrary<RawRequest> => {
  const segment = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...SEGMENTS) },
    { weight: 2, arbitrary: fc.constantFrom(...targets.heldNodes, ...targets.endedTokens) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 20_000 }).map((length) => 'x'.repeat(length)) },
  );
  const path = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(fc.array(segment, { maxLength: 6 }), queryString).map(([segments, query]) => `/${segments.join('/')}${query}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '*',
        '//v1//nodes',
        '/v1/./nodes/../nodes',
        'http://evil.example/v1/nodes',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/v1/nodes#x',
        '/v1/nodes?%FF=%FF',
      ),
    },
  );
  const method = fc.constantFrom('GET', 'GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'BREW', 'get', 'P0ST');
  return fc.tuple(method, path, anyBody).map(([m, p, { body, headers }]) => ({ method: m, path: p, headers, body }));
};

/** 2. Fenced commands (deployment reports, releases, owner data, reads) with every kind of wrong token. */
export const wrongTokenCommand = (targets: FuzzTargets): fc.Arbitrary<RawRequest> => {
  const validBody = fc.oneof(
    fc.constant({}),
    fc.record({ requestId: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/) }),
    fc.record({ reason: fc.string({ maxLength: 30 }), source: fc.constantFrom('maas', 'consumer') }),
    fc.record({ force: fc.boolean() }),
    fc.record({ ownerData: fc.dictionary(fc.constantFrom('juju-machine-id', 'juju-model-uuid'), fc.constantFrom('', '87', 'x')) }),
  );
  const body = fc.oneof({ weight: 4, arbitrary: validBody.map(jsonBody) }, { weight: 1, arbitrary: hostileValue.map(jsonBody) });
  return fc.oneof(
    fc.tuple(wrongToken(targets), fc.constantFrom('deploying', 'deployed', 'failed', 'release', 'owner-data'), body).map(([token, action, text]) => ({
      method: 'POST',
      path: `/v1/allocations/${token}/${action}`,
      headers: JSON_TYPE,
      body: text,
    })),
    wrongToken(targets).map((token) => ({ method: 'GET', path: `/v1/allocations/${token}` })),
  );
};

const validConsumer = fc.record({
  controller: fc.constantFrom('fuzz', 'owner'),
  model: fc.constantFrom('m', 'prod', 'other'),
  machine: fc.constantFrom('0', '1', '7'),
});

/** 3. Valid-looking acquires that must lose: held or reserved nodes, wrong keys, unknown nodes, reused requestIds. */
export const doomedAcquire = (targets: FuzzTargets): fc.Arbitrary<RawRequest> => {
  const freshRequestId = fc.stringMatching(/^fz-[a-z0-9]{1,16}$/);
  const requestId = fc.oneof({ weight: 4, arbitrary: freshRequestId }, { weight: 1, arbitrary: fc.constantFrom(...targets.usedRequestIds) });
  const reserved = targets.reservedNodes;
  const byHeldNode = fc.record({ requestId, consumer: validConsumer, nodeId: fc.constantFrom(...targets.heldNodes, 'fz-ghost') });
  const byReservedNode = fc
    .tuple(
      fc.integer({ min: 0, max: reserved.length - 1 }),
      requestId,
      validConsumer,
      fc.option(fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...reserved.map(({ reservationKey }) => reservationKey)))),
    )
    .filter(([index, , , key]) => key !== reserved[index].reservationKey)
    .map(([index, id, consumer, key]) => ({ requestId: id, consumer, nodeId: reserved[index].nodeId, ...(key === null ? {} : { reservationKey: key }) }));
  const byConstraints = fc.record({
    requestId,
    consumer: validConsumer,
    constraints: fc.record(
      {
        arch: fc.constantFrom('amd64', 'arm64'),
        minCpu: fc.nat(64),
        zone: fc.constantFrom('default', 'z1'),
        tags: fc.array(fc.constantFrom('gpu', 'ssd'), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
  });
  const withHostileField = fc
    .tuple(byHeldNode, fc.constantFrom('requestId', 'consumer', 'nodeId', 'reservationKey', 'constraints', 'extra'), hostileValue)
    .map(([body, field, value]) => ({ ...body, [field]: value }));
  return fc
    .oneof(byHeldNode, byReservedNode, byConstraints, withHostileField)
    .map((body) => ({ method: 'POST', path: '/v1/allocations', headers: JSON_TYPE, body: jsonBody(body) }));
};

/** 4. Reservations: reserving taken nodes, cancelling with wrong, borrowed or missing keys. */
export const wrongReservation = (targets: FuzzTargets): fc.Arbitrary<RawRequest> => {
  const reserved = targets.reservedNodes;
  const nodes = [...targets.heldNodes, ...reserved.map(({ nodeId }) => nodeId), 'fz-ghost'];
  const reserve = fc
    .tuple(
      fc.constantFrom(...nodes),
      fc.oneof(
        fc.record({ agentName: fc.constantFrom('thief', 'juju'), ttlSeconds: fc.integer({ min: -5, max: 40_000_000 }) }, { requiredKeys: ['agentName'] }),
        hostileValue,
      ),
    )
    .map(([nodeId, body]) => ({ method: 'POST', path: `/v1/nodes/${nodeId}/reservations`, headers: JSON_TYPE, body: jsonBody(body) }));
  const cancel = fc
    .tuple(
      fc.integer({ min: 0, max: reserved.length - 1 }),
      fc.oneof(fc.constantFrom(...reserved.map(({ reservationId }) => reservationId)), fc.string({ maxLength: 40 }).map(encodeURIComponent)),
      fc.oneof(fc.constantFrom(...reserved.map(({ reservationKey }) => reservationKey)), fc.string({ maxLength: 300 }), fc.constant(undefined)),
      fc.constantFrom('header', 'body', 'hostile-body'),
      hostileValue,
    )
    .filter(([index, reservationId, key]) => !(reservationId === reserved[index].reservationId && key === reserved[index].reservationKey))
    .map(([index, reservationId, key, where, hostile]) => ({
      method: 'DELETE',
      path: `/v1/nodes/${reserved[index].nodeId}/reservations/${reservationId}`,
      headers: { ...JSON_TYPE, ...(where === 'header' && key !== undefined ? { 'x-reservation-key': key.replace(/[\r\n]/g, '') } : {}) },
      body: where === 'body' ? jsonBody(key === undefined ? {} : { reservationKey: key }) : where === 'hostile-body' ? jsonBody(hostile) : undefined,
    }))
    .filter((request) => request.headers['x-reservation-key'] === undefined || /^[\t\x20-\x7e]*$/.test(request.headers['x-reservation-key']));
  return fc.oneof(reserve, cancel);
};

/** Valid command bodies on targets where they must be refused or change nothing; the mutations below break them. */
const templates = (targets: FuzzTargets): { path: string; body: Record<string, unknown> }[] => [
  { path: '/v1/nodes', body: { nodeId: targets.heldNodes[0], hostname: 'another.maas', arch: 'arm64', cpuCount: 2, memoryMb: 1024, tags: ['x'], zone: 'z9' } },
  { path: '/v1/allocations', body: { requestId: 'fz-template', consumer: { controller: 'fuzz', model: 'm', machine: '1' }, nodeId: targets.heldNodes[0] } },
  { path: `/v1/allocations/${targets.endedTokens[0]}/release`, body: { requestId: 'fz-release', force: true } },
  { path: `/v1/allocations/${targets.endedTokens[0]}/failed`, body: { requestId: 'fz-failed', reason: 'r', source: 'maas' } },
  { path: '/v1/observations/nodes', body: { nodeId: 'fz-ghost', providerStatus: 'Ready', observedAt: new Date().toISOString(), source: 'maas' } },
  { path: `/v1/nodes/${targets.heldNodes[0]}/reservations`, body: { agentName: 'thief', owner: 'o', ttlSeconds: 60 } },
  { path: '/v1/models/release', body: { controller: 'nobody', model: 'nothing', force: true, requestId: 'fz-model' } },
  {
    path: '/v1/reconcile',
    body: {
      consumer: { controller: 'fuzz', model: 'm' },
      instances: [
        { machine: '1', token: targets.liveTokens[0].token },
        { machine: '2', nodeId: targets.heldNodes[0] },
      ],
    },
  },
];

/** 5. Each command's valid body, broken one way: a field of the wrong kind, missing, unknown, a prototype key, the wrong shape. */
export const mutatedCommand = (targets: FuzzTargets): fc.Arbitrary<RawRequest> =>
  fc
    .tuple(
      fc.constantFrom(...templates(targets)),
      fc.nat(),
      hostileValue,
      fc.constantFrom('replace', 'replace', 'nested', 'delete', 'unknown', 'prototype', 'array', 'string'),
    )
    .map(([template, pick, value, how]) => {
      const body: Record<string, unknown> = structuredClone(template.body);
      const fields = Object.keys(body);
      const field = fields[pick % fields.length];
      let text: string;
      switch (how) {
        case 'replace':
          // A valid new nodeId would enlist a new node, a legitimate write: keep it invalid.
          text = jsonBody({ ...body, [field]: template.path === '/v1/nodes' && field === 'nodeId' && typeof value === 'string' ? `${value}/` : value });
          break;
        case 'nested': {
          const inner = Object.entries(body).find(([, v]) => v && typeof v === 'object');
          text = inner
            ? jsonBody({
                ...body,
                [inner[0]]: Array.isArray(inner[1])
                  ? [value]
                  : { ...(inner[1] as object), [String(pick % 3 === 0 ? 'evil' : Object.keys(inner[1] as object)[0])]: value },
              })
            : jsonBody({ ...body, [field]: value });
          break;
        }
        case 'delete':
          delete body[field];
          text = jsonBody(body);
          break;
        case 'unknown':
          text = jsonBody({ ...body, [`x${pick % 100}`]: value });
          break;
        case 'prototype':
          text = jsonBody(body).replace(/^\{/, `{"${PROTOTYPE_KEYS[pick % 3]}":${jsonBody(value)},`);
          break;
        case 'array':
          text = jsonBody([body]);
          break;
        default:
          text = JSON.stringify(jsonBody(body));
      }
      return { method: 'POST', path: template.path, headers: JSON_TYPE, body: text };
    });
