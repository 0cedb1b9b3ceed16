import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { mintToken } from '@ledger/domain';
import { stringAt, type RecordedEvent } from '@ledger/event-store';
import { AUDIT_DATA_PATHS, auditEventOf, deriveAuditFields, leaseGrantOf, ownerlessLeaseOf } from './audit-fields';

const event = (stream: string, type: string, data: unknown): RecordedEvent => ({
  id: 'e',
  type,
  stream,
  revision: 0,
  position: 1,
  recordedAt: '2025-01-01T00:00:00.000Z',
  data,
  metadata: { correlationId: 'c', causationId: null, actor: 'a', requestId: null, schemaVersion: 1 },
});
const token = mintToken('node-7', 3, 'entropyentropy00');

describe('audit fields come from conventions, not from knowing each event type', () => {
  it('a node event: nodeId and token from its data, consumer from consumer', () => {
    assert.deepEqual(
      deriveAuditFields(
        event('node-node-7', 'NodeAcquired', { nodeId: 'node-7', token, consumer: { controller: 'fair-clouds', model: 'mobile-app', machine: '87' } }),
      ),
      {
        nodeId: 'node-7',
        token,
        ip: null,
        controller: 'fair-clouds',
        model: 'mobile-app',
      },
    );
  });

  it('an event with no nodeId is placed by its stream: node-*, ip-*', () => {
    assert.equal(deriveAuditFields(event('node-node-9', 'SomethingNew', {})).nodeId, 'node-9');
    assert.deepEqual(deriveAuditFields(event('ip-10.0.0.5', 'LeaseExpired', {})), { nodeId: null, token: null, ip: '10.0.0.5', controller: null, model: null });
  });

  it("a lease owned by an allocation names the allocation's token and, through it, its node", () => {
    const fields = deriveAuditFields(event('ip-10.0.0.5', 'LeaseGranted', { ip: '10.0.0.5', owner: { kind: 'allocation', token } }));
    assert.deepEqual(fields, { nodeId: 'node-7', token, ip: '10.0.0.5', controller: null, model: null });
  });

  it('a refusal stream names its subject when the data does not', () => {
    assert.equal(deriveAuditFields(event('refusals-node-3', 'CommandRefused', { code: 'stale_token' })).nodeId, 'node-3');
    assert.equal(deriveAuditFields(event('refusals-10.1.2.3', 'CommandRefused', { code: 'ip_in_use' })).ip, '10.1.2.3');
    assert.equal(deriveAuditFields(event('refusals-fd00::1', 'CommandRefused', { code: 'ip_in_use' })).ip, 'fd00::1');
    assert.deepEqual(deriveAuditFields(event('refusals-ledger', 'CommandRefused', { code: 'forbidden' })), {
      nodeId: null,
      token: null,
      ip: null,
      controller: null,
      model: null,
    });
  });

  it('odd data (null, strings, numbers where text is expected) gives nulls, never a throw', () => {
    assert.deepEqual(deriveAuditFields(event('request-r1', 'X', null)), { nodeId: null, token: null, ip: null, controller: null, model: null });
    assert.deepEqual(deriveAuditFields(event('request-r1', 'X', { nodeId: 7, token: '', consumer: 'c' })), {
      nodeId: null,
      token: null,
      ip: null,
      controller: null,
      model: null,
    });
    assert.equal(deriveAuditFields(event('request-r1', 'X', { token: 'not-a-token' })).nodeId, null);
  });
});

describe('the fields at AUDIT_DATA_PATHS are all the audit index reads of an event', () => {
  // The rebuild's thread files each event from those strings alone (auditEventOf): a field read
  // here and missing from the list would file it differently from the live index.
  const text = fc.oneof(fc.constantFrom('', 'node-7', '10.0.0.9', '2001:db8::1', 'lease-1', token), fc.string());
  const value = fc.oneof(text, fc.jsonValue({ maxDepth: 1 }));
  const objectOf = (keys: string[]) => fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length });
  const dataArb = fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(
          objectOf(['nodeId', 'token', 'ip', 'leaseId', 'other']),
          fc.record(
            { owner: fc.oneof(objectOf(['nodeId', 'token', 'kind']), value), consumer: fc.oneof(objectOf(['controller', 'model', 'machine']), value) },
            { requiredKeys: [] },
          ),
        )
        .map(([top, nested]) => ({ ...top, ...nested })),
    },
    { weight: 1, arbitrary: value },
  );
  const streamArb = fc.constantFrom('node-node-7', 'ip-10.0.0.9', 'refusals-node-7', 'refusals-10.0.0.9', 'refusals-ledger', 'ledger');

  it('derives the same fields, lease grant and ownerless lease from them as from the whole data', () => {
    fc.assert(
      fc.property(streamArb, dataArb, (stream, data) => {
        const whole = event(stream, 'AnyEvent', data);
        const fromFields = auditEventOf({
          position: whole.position,
          type: whole.type,
          stream,
          recordedAt: whole.recordedAt,
          fields: AUDIT_DATA_PATHS.map((path) => stringAt(data, path)),
        });
        const fields = deriveAuditFields(whole);
        assert.deepStrictEqual(deriveAuditFields(fromFields), fields);
        assert.deepStrictEqual(leaseGrantOf(fromFields, fields), leaseGrantOf(whole, fields));
        assert.deepStrictEqual(ownerlessLeaseOf(fromFields, fields), ownerlessLeaseOf(whole, fields));
      }),
      { numRuns: 500 },
    );
  });
});
