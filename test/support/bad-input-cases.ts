/** Requests the ledger must refuse with a 4xx naming the problem: malformed bodies, fields, ids and times. */
import { consumer } from './fixtures';

/** A request that must be refused: its status, and what the refusal's message must mention. */
export interface BadInputCase {
  name: string;
  method?: string;
  path: string;
  body: unknown;
  status: number;
  mentions: RegExp;
}

export const MALFORMED_REQUESTS: BadInputCase[] = [
  { name: 'malformed JSON', path: '/v1/nodes', body: '{"nodeId": "x", ', status: 400, mentions: /not valid JSON/ },
  { name: 'a JSON array', path: '/v1/nodes', body: '[1,2]', status: 400, mentions: /JSON object/ },
  { name: 'a JSON string', path: '/v1/nodes', body: '"node"', status: 400, mentions: /JSON|object/ },
  { name: 'a missing field', path: '/v1/nodes', body: { nodeId: 'n1' }, status: 400, mentions: /^hostname: hostname is required$/ },
  { name: 'an unknown field', path: '/v1/nodes', body: { nodeId: 'n1', hostname: 'h', colour: 'red' }, status: 400, mentions: /colour/ },
  { name: 'a mistyped field', path: '/v1/nodes', body: { nodeId: 'n1', hostname: 'h', cpuCount: 'eight' }, status: 400, mentions: /cpuCount/ },
  {
    name: 'a fractional cpu count',
    path: '/v1/nodes',
    body: { nodeId: 'n1', hostname: 'h', cpuCount: 1.5 },
    status: 400,
    mentions: /cpuCount must be an integer/,
  },
  { name: 'an oversized string', path: '/v1/nodes', body: { nodeId: 'n1', hostname: 'h'.repeat(300) }, status: 400, mentions: /hostname/ },
  { name: 'an id with a slash', path: '/v1/nodes', body: { nodeId: '../etc', hostname: 'h' }, status: 400, mentions: /nodeId/ },
  {
    name: 'a nested unknown field',
    path: '/v1/allocations',
    body: { requestId: 'r1', consumer: { controller: 'c', model: 'm', evil: 1 }, nodeId: 'good-node' },
    status: 400,
    mentions: /consumer\.evil/,
  },
  {
    name: 'a nested missing field',
    path: '/v1/allocations',
    body: { requestId: 'r1', consumer: { controller: 'c' }, nodeId: 'good-node' },
    status: 400,
    mentions: /consumer\.model/,
  },
  {
    name: 'a consumer that is not an object',
    path: '/v1/allocations',
    body: { requestId: 'r1', consumer: 'alice', nodeId: 'good-node' },
    status: 400,
    mentions: /consumer/,
  },
  {
    name: 'nodeId and constraints together',
    path: '/v1/allocations',
    body: { requestId: 'r1', consumer: consumer('c', 'm'), nodeId: 'good-node', constraints: {} },
    status: 400,
    mentions: /either nodeId or constraints/,
  },
  {
    name: 'an unknown node',
    path: '/v1/allocations',
    body: { requestId: 'r2', consumer: consumer('c', 'm'), nodeId: 'no-such-node' },
    status: 404,
    mentions: /not enlisted/,
  },
  { name: 'an unknown token', path: '/v1/allocations/not-a-token/release', body: {}, status: 404, mentions: /no allocation/ },
  {
    name: 'a well-formed token never issued',
    path: `/v1/allocations/${Buffer.from('good-node').toString('base64url')}.9.AAAAAAAAAAAAAAAAAAAAAA/release`,
    body: {},
    status: 404,
    mentions: /no allocation/,
  },
  {
    name: 'an observation with a bad time',
    path: '/v1/observations/nodes',
    body: { nodeId: 'good-node', providerStatus: 'ready', observedAt: 'yesterday', source: 'maas' },
    status: 400,
    mentions: /observedAt/,
  },
  // ISO-8601 forms `new Date` cannot read (week, ordinal, basic dates) or reads in the
  // server's own zone (no zone): refused like any bad time, never a 500.
  {
    name: 'an observation with a week date',
    path: '/v1/observations/nodes',
    body: { nodeId: 'good-node', providerStatus: 'ready', observedAt: '2026-W10', source: 'maas' },
    status: 400,
    mentions: /observedAt must be an RFC 3339 date-time/,
  },
  {
    name: 'a power observation with a time without a zone',
    path: '/v1/observations/power',
    body: { nodeId: 'good-node', ok: false, error: 'BMC timeout', observedAt: '2026-12-31T10:00:00' },
    status: 400,
    mentions: /observedAt must be an RFC 3339 date-time/,
  },
  {
    name: 'a lease with an ordinal-date expiry',
    path: '/v1/leases',
    body: { ip: '10.0.0.5', mac: '52:54:00:00:00:05', owner: { kind: 'allocation', token: 'x' }, kind: 'dhcp', expiresAt: '2026-100' },
    status: 400,
    mentions: /expiresAt must be an RFC 3339 date-time/,
  },
  {
    name: 'a lease renewal with a basic-format date',
    path: '/v1/leases/10.0.0.5/renew',
    body: { expiresAt: '20261231' },
    status: 400,
    mentions: /expiresAt must be an RFC 3339 date-time/,
  },
  {
    name: 'a DHCP lease record with a week date',
    path: '/v1/observations/leases',
    body: { source: 'dhcpd', leases: [{ ip: '10.0.0.6', mac: '52:54:00:00:00:06', state: 'active', ends: '2026-W10-1' }] },
    status: 400,
    mentions: /leases\[0\]\.ends: must be an RFC 3339 date-time/,
  },
  {
    name: 'a reservation ttl out of range',
    path: '/v1/nodes/good-node/reservations',
    body: { agentName: 'a', ttlSeconds: -5 },
    status: 400,
    mentions: /ttlSeconds/,
  },
  {
    name: 'a body over the size limit',
    path: '/v1/nodes',
    body: { nodeId: 'n1', hostname: 'h', tags: ['x'.repeat(70_000)] },
    status: 413,
    mentions: /too large/,
  },
];
