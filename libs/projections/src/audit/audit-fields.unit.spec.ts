import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mintToken } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import { deriveAuditFields } from './audit-fields';

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
