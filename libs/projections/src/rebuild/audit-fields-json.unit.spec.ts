import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { RecordedEvent } from '@ledger/event-store';
import { auditFieldsOf } from '../audit/audit-fields';
import { FIELDS_EVENTS_PER_STRING, parseAuditFields, printAuditFields } from './audit-fields-json';

const eventWith = (data: unknown, position: number): RecordedEvent => ({
  id: `e${position}`,
  type: 'NodeAcquired',
  stream: 'node-n',
  revision: 0,
  position,
  recordedAt: '2025-01-01T00:00:00.000Z',
  data,
  metadata: { correlationId: 'c', causationId: null, actor: 'a', requestId: null, schemaVersion: 1 },
});

const text = fc.option(fc.string({ maxLength: 12 }), { nil: undefined });
const dataArb = fc.record(
  {
    nodeId: text,
    token: text,
    ip: text,
    leaseId: text,
    owner: fc.record({ nodeId: text, token: text }),
    consumer: fc.record({ controller: text, model: fc.oneof(text, fc.nat()) }),
  },
  { requiredKeys: [] },
);

describe("a page's audit fields cross to the audit thread as a few strings", () => {
  it('gives back exactly auditFieldsOf the page, a string for every FIELDS_EVENTS_PER_STRING events', () => {
    fc.assert(
      fc.property(fc.array(dataArb, { maxLength: 30 }), fc.integer({ min: 1, max: 2_500 }), (data, length) => {
        // A page of `length` events, their data drawn from `data` in turn (or none).
        const page = Array.from({ length }, (_, i) => eventWith(data.length === 0 ? {} : data[i % data.length], i + 1));
        const parts = printAuditFields(page);
        assert.equal(parts.length, Math.ceil(length / FIELDS_EVENTS_PER_STRING));
        assert.deepStrictEqual(parseAuditFields(parts), auditFieldsOf(page));
      }),
      { numRuns: 60 },
    );
  });

  it('refuses fields that do not make whole events', () => {
    assert.throws(() => parseAuditFields(['["a","b","c"]']), /3 fields do not make whole events of 8/);
  });
});
