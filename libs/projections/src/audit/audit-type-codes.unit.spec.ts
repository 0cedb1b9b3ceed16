import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AUDIT_TYPE_CODES, auditTypeName, auditTypeValue, auditTypeValues } from './audit-type-codes';
import { EVENT_SUMMARIES } from './event-summaries';

describe("the audit index's type codes", () => {
  it('give each listed type its own code, one a row stores in a byte', () => {
    assert.equal(new Set(AUDIT_TYPE_CODES).size, AUDIT_TYPE_CODES.length);
    assert.ok(AUDIT_TYPE_CODES.length <= 127, 'SQLite stores an integer up to 127 in one byte');
    for (const [code, type] of AUDIT_TYPE_CODES.entries()) assert.equal(auditTypeValue(type), code);
  });

  it('give a code to every event type the ledger writes (each has a summary line), so none is filed by its name', () => {
    const uncoded = Object.keys(EVENT_SUMMARIES).filter((type) => typeof auditTypeValue(type) !== 'number');
    assert.deepEqual(uncoded, [], 'append these to AUDIT_TYPE_CODES (never reorder it)');
  });

  it('name back any type they store, and ask for every value a row of it may hold', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...AUDIT_TYPE_CODES), fc.string()), (type) => {
        assert.equal(auditTypeName(auditTypeValue(type)), type);
        assert.ok(auditTypeValues(type).includes(auditTypeValue(type)));
        assert.ok(auditTypeValues(type).includes(type), 'a row filed under its name before its type had a code');
      }),
    );
  });
});
