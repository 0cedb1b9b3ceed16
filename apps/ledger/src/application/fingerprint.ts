import { hash } from 'node:crypto';

const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
};

/** A digest of a request body, key order aside: the same requestId must carry the same body. */
export const fingerprintOf = (body: unknown): string => hash('sha256', JSON.stringify(canonical(body)), 'base64url');

/** Secrets (reservation keys) are only ever stored as this digest. */
export const hashSecret = (secret: string): string => hash('sha256', secret, 'hex');

/** A UUID derived from a name, so a retried write carries the same event id (RFC 4122 v5 layout). */
export const deterministicUuid = (name: string): string => {
  const bytes = hash('sha1', `provisioning-ledger:${name}`, 'buffer').subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
