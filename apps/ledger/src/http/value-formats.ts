import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { RFC3339_TIME_PATTERN, type NameRule } from '@ledger/domain';

type Schema = Omit<SchemaObject, 'required'> & { type: 'string' | 'integer'; description?: string };

/**
 * The formats of values the ledger takes, as the API document states them: each is what
 * the server's own check accepts (libs/domain: parseIp, parseMac, parseRfc3339Time, the
 * name rules), so a client that follows the document is never refused for a format.
 */

/** An IPv4 octet, leading zeros allowed (read as decimal, as DHCP servers write them). */
const OCTET = '(?:25[0-5]|2[0-4][0-9]|[01]?[0-9]?[0-9])';
export const IPV4_SPELLING = `^${OCTET}(?:\\.${OCTET}){3}$`;

/** Any spelling of an IPv4 or IPv6 address parseIp reads; no zone index (%eth0). */
export const IP_SCHEMA: Schema & { description: string } = {
  type: 'string',
  maxLength: 64,
  // The type inside each choice too: @nestjs/swagger drops a `type` that stands beside anyOf.
  anyOf: [
    { type: 'string', pattern: IPV4_SPELLING },
    { type: 'string', format: 'ipv6', pattern: '^[0-9A-Fa-f:.]+$' },
  ],
  description: 'IPv4 (leading zeros read as decimal) or IPv6 without a zone index, any spelling; compared and stored canonically.',
  example: '10.0.0.17',
};

const HEX = '[0-9A-Fa-f]';
/**
 * A unicast, non-zero EUI-48 in any usual spelling: 52:54:00:12:34:56, 52-54-00-12-34-56,
 * 5254.0012.3456, 525400123456. The second hex digit is even (the group bit clear).
 */
export const MAC_PATTERN = `^(?![0:.-]*$)${HEX}[02468AaCcEe](?:(?::${HEX}{2}){5}|(?:-${HEX}{2}){5}|${HEX}{2}\\.${HEX}{4}\\.${HEX}{4}|${HEX}{10})$`;
export const MAC_SCHEMA: Schema = {
  type: 'string',
  maxLength: 17,
  pattern: MAC_PATTERN,
  description: 'A unicast MAC address (not multicast, broadcast or all-zero), any usual spelling; stored as 52:54:00:12:34:56.',
  example: '52:54:00:12:34:56',
};

/** An RFC 3339 date-time in a request: `format: date-time`, and the pattern that says seconds and a zone are required. */
export const DATE_TIME_REQUEST: Schema = { type: 'string', format: 'date-time', pattern: RFC3339_TIME_PATTERN, maxLength: 64, example: '2025-01-01T12:00:00Z' };

/** A name that follows a rule of libs/domain/src/names, as a schema. */
export const nameSchema = (rule: NameRule, example: string): Schema => ({
  type: 'string',
  minLength: 1,
  maxLength: rule.maxLength,
  pattern: rule.pattern.source,
  description: `${rule.what}: ${rule.says}.`,
  example,
});

/** A point of the log in a query: a global position (digits) or an RFC 3339 date-time (isApiPointInLog). */
export const POINT_IN_LOG: Schema = {
  type: 'string',
  maxLength: 64,
  anyOf: [
    { type: 'string', pattern: '^[0-9]{1,15}$' },
    { type: 'string', format: 'date-time', pattern: RFC3339_TIME_PATTERN },
  ],
  description: 'A point of the log: a global position (digits) or an RFC 3339 date-time.',
  example: '2025-01-01T12:00:00Z',
};

/** A query parameter holding a whole number (sent as digits). */
export const integerQuery = (minimum: number, maximum: number): Schema => ({ type: 'integer', minimum, maximum });
