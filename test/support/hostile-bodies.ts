/**
 * fast-check generators of hostile request bodies: JSON values and texts that break
 * what a handler expects (wrong types, prototype keys, huge numbers, broken UTF-8),
 * sent under a right or wrong content type.
 */
import fc from 'fast-check';

export const JSON_TYPE = { 'content-type': 'application/json' };
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

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

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

export const jsonBody = (value: unknown) => JSON.stringify(value) ?? 'null';

/** A body for any endpoint: none, a hostile value, or hostile text. */
export const anyBody: fc.Arbitrary<{ body?: string | Buffer; headers: Record<string, string> }> = fc.record({
  body: fc.oneof(
    fc.constant(undefined),
    hostileValue.map(jsonBody),
    hostileJsonText,
    fc.constant(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
  ),
  headers: fc.constantFrom(...CONTENT_TYPES),
});
