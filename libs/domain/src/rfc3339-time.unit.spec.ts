import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseRfc3339Time } from './rfc3339-time';

const iso = (text: string): string | undefined => parseRfc3339Time(text)?.toISOString();

describe('RFC 3339 date-times, as JSON Schema and OpenAPI mean `date-time`', () => {
  it('reads the forms RFC 3339 allows: lower-case t and z, offsets, any fraction', () => {
    assert.equal(iso('2025-01-01T12:00:00Z'), '2025-01-01T12:00:00.000Z');
    assert.equal(iso('2025-01-01t12:00:00z'), '2025-01-01T12:00:00.000Z');
    assert.equal(iso('2025-01-01T14:30:00+02:30'), '2025-01-01T12:00:00.000Z');
    assert.equal(iso('2025-01-01T00:00:00-00:00'), '2025-01-01T00:00:00.000Z');
    assert.equal(iso('2025-01-01T12:00:00.123456789Z'), '2025-01-01T12:00:00.123Z');
    assert.equal(iso('2016-12-31T23:59:60Z'), '2016-12-31T23:59:59.999Z', 'a leap second: the last millisecond of its minute');
    assert.equal(iso('0001-01-01T00:00:00Z'), '0001-01-01T00:00:00.000Z', 'years below 100 are themselves');
    assert.equal(iso('2024-02-29T00:00:00Z'), '2024-02-29T00:00:00.000Z');
  });

  it('refuses what it does not allow, and dates that do not exist', () => {
    for (const bad of [
      '2025-01-01T12:00Z',
      '2025-01-01 12:00:00Z',
      '2025-01-01T12:00:00',
      '2025-01-01T12:00:00+0200',
      '2025-01-01T12:00:00+02',
      '2025-01-01',
      '2026-W10',
      '20261231',
      '2025-02-29T00:00:00Z',
      '2025-04-31T00:00:00Z',
      '2025-13-01T00:00:00Z',
      '2025-01-01T24:00:00Z',
      '2025-01-01T12:60:00Z',
      '2025-01-01T12:00:00+24:00',
      7,
      null,
    ]) {
      assert.equal(parseRfc3339Time(bad), null, String(bad));
    }
  });

  it('reads back every moment toISOString writes', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (date) => {
        assert.equal(parseRfc3339Time(date.toISOString())?.getTime(), date.getTime());
      }),
    );
  });
});
