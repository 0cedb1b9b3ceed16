/**
 * fast-check generators of malformed and adversarial HTTP requests, built over what a
 * fuzz run set up (nodes, live and ended tokens, reservations). Every request they make
 * must be refused or harmless: none names a free node, a live token as is, or a
 * reservation with its own key, so a 2xx that changes a node would be a real bug.
 *
 * Why this file is over 300 lines: one generator per kind of hostile request, all over
 * the same FuzzTargets; they read as one catalogue of what the fuzz test throws.
 */
import fc from 'fast-check';
import type { RawRequest } from './raw-http';

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

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

const JSON_TYPE = { 'content-type': 'application/json' };
const CONTENT_TYPES: Record<string, string>[] = [
  JSON_TYPE,
  JSON_TYPE,
  JSON_TYPE,
  {},
  { 'content-type': 'text/plain' },
  { 'content-type': 'application/json; charset=utf-16' },
  { 'content-type': 'application/json; charset=latin1' },
  { 'content-type': 'application/x-www-form-urlencoded' },
  { 'content-type': 'multipart/form-data; boundary=x' },
  { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  { 'content-type': 'application/json', 'transfer-encoding': 'chunked, identity' },
];

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Values of every wrong kind: types, sizes, encodings, numbers JSON cannot hold exactly. */
export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 64, -1, 0.5, 65_537, 1 << 30),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '../../etc/passwd',
    '%FF',
    '\u0000',
    '\ud800',
    '\u202e',
    'DROP TABLE events;--',
    'x'.repeat(5_000),
    '__proto__',
    '${7*7}',
    '<script>',
    'node-a\r\nx-evil: 1',
    'Ready',
  ),
);

const hostileKey = fc.oneof(
  fc.constantFrom(...PROTOTYPE_KEYS, 'nodeId', 'token', 'force', 'requestId', 'consumer', 'isAdmin', ''),
  fc.string({ maxLength: 12 }),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileScalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Broken or hostile JSON text: truncated, not JSON, prototype keys, numbers out of range, very deep. */
const hostileJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.json({ maxDepth: 3 }).map((json) => json.slice(0, Math.max(0, json.length - 1))),
  fc.constantFrom(
    '{',
    '}',
    '{"a":}',
    "{'nodeId':'x'}",
    '{"nodeId":"x",}',
    'NaN',
    'undefined',
    '\ufeff{"nodeId":"n","hostname":"h"}',
    '{"nodeId":"a","nodeId":"b"}',
    '{"cpuCount":1e99999}',
    '{"cpuCount":-0}',
    '{"cpuCount":123456789012345678901234567890}',
    'null',
    'true',
    '[]',
    '""',
    '0',
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    '{"consumer":{"__proto__":{"controller":"c","model":"m"}}}',
  ),
  fc.integer({ min: 33, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 33, max: 5_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
);

const jsonBody = (value: unknown) => JSON.stringify(value) ?? 'null';

/** A body for any endpoint: none, a hostile value, or hostile text. */
const anyBody: fc.Arbitrary<{ body?: string | Buffer; headers: Record<string, string> }> = fc.record({
  body: fc.oneof(
    fc.constant(undefined),
    hostileValue.map(jsonBody),
    hostileJsonText,
    fc.constant(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
  ),
  headers: fc.constantFrom(...CONTENT_TYPES),
});

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

/** A token that is NOT a live one: ended, forged, borrowed from another node, or subtly altered. */
export const wrongToken = (targets: FuzzTargets): fc.Arbitrary<string> => {
  const live = new Set(targets.liveTokens.map(({ token }) => token));
  const nodes = [...targets.heldNodes, ...targets.reservedNodes.map(({ nodeId }) => nodeId), 'fz-ghost'];
  const entropy = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 16, maxLength: 64 });
  const livePick = fc.constantFrom(...targets.liveTokens);
  return fc
    .oneof(
      fc.constantFrom(...targets.endedTokens),
      fc.tuple(fc.constantFrom(...nodes), fc.integer({ min: 1, max: 6 }), entropy).map(([nodeId, epoch, random]) => `${b64(nodeId)}.${epoch}.${random}`),
      fc.tuple(livePick, fc.constantFrom(...nodes)).map(([{ token }, other]) => `${b64(other)}.${token.split('.').slice(1).join('.')}`),
      livePick.map(({ token }) => `${token}x`),
      livePick.map(({ token }) => token.slice(0, -1)),
      livePick.map(({ token }) => token.replace(/\.(\d+)\./, (_, epoch: string) => `.${Number(epoch) + 1}.`)),
      livePick.map(({ token }) => token.replace(/\.(\d+)\./, '.0.')),
      livePick.map(({ token }) => token.replace(/\.(\d+)\./, '.99999999999999999999.')),
      livePick.map(({ token }) => token.toUpperCase()),
      livePick.map(({ token }) => encodeURIComponent(`${token}/../${token}`)),
      fc.string({ unit: 'binary', maxLength: 30 }).map(encodeURIComponent),
      fc.constantFrom('..', '%2e%2e', '%FF', 'x'.repeat(600), `${b64('../etc')}.1.AAAAAAAAAAAAAAAAAAAA`),
    )
    .filter((token) => token !== '' && !live.has(token) && !live.has(safeDecode(token)));
};

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

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
