import assert from 'node:assert/strict';
import { parseIscLeases } from '../isc-dhcpd-parser';
import type { LeaseRecord } from '../lease-record';

/** A dhcpd.leases text, a line each. */
export const leaseFileText = (...lines: string[]): string => lines.join('\n');

/** The one record a dhcpd.leases text holds, read without a problem. */
export const onlyRecord = (text: string): LeaseRecord => {
  const reading = parseIscLeases(text);
  assert.deepEqual(reading.problems, [], JSON.stringify(reading.problems));
  assert.equal(reading.records.length, 1);
  return reading.records[0];
};
