import { randomBytes } from 'node:crypto';

export interface MaasCredentials {
  consumerKey: string;
  tokenKey: string;
  tokenSecret: string;
}

/**
 * The credentials of an OAuth 1.0 PLAINTEXT Authorization header as MAAS clients send it
 * (`OAuth oauth_consumer_key="..", oauth_token="..", oauth_signature="&<secret>", ..`,
 * values query-escaped), or null when it is missing or not one. Juju's client retries a
 * 503 with the header added twice; node keeps the first, and both are the same key.
 */
export const credentialsOf = (header: string | undefined): MaasCredentials | null => {
  if (!header || !/^OAuth\s/i.test(header) || header.length > 4096) return null;
  const fields: Record<string, string> = {};
  for (const match of header.matchAll(/([A-Za-z_]+)="([^"]*)"/g)) {
    try {
      fields[match[1]] = decodeURIComponent(match[2].replace(/\+/g, ' '));
    } catch {
      return null;
    }
  }
  const signature = fields.oauth_signature ?? '';
  if (fields.oauth_signature_method !== 'PLAINTEXT' || !signature.startsWith('&')) return null;
  const consumerKey = fields.oauth_consumer_key;
  const tokenKey = fields.oauth_token;
  if (!consumerKey || !tokenKey) return null;
  return { consumerKey, tokenKey, tokenSecret: signature.slice(1) };
};

/** The Authorization header for a MAAS key (`consumer:token:secret`), as gomaasapi signs. */
export const authorizationFor = (apiKey: string, now: Date): string => {
  const [consumerKey, tokenKey, tokenSecret] = apiKey.split(':');
  const fields = {
    realm: 'MAAS API',
    oauth_consumer_key: consumerKey,
    oauth_token: tokenKey,
    oauth_signature_method: 'PLAINTEXT',
    oauth_signature: `&${tokenSecret}`,
    oauth_timestamp: String(Math.floor(now.getTime() / 1000)),
    oauth_nonce: randomBytes(16).toString('hex'),
    oauth_version: '1.0',
  };
  return `OAuth ${Object.entries(fields)
    .map(([key, value]) => `${key}="${encodeURIComponent(value)}"`)
    .join(', ')}`;
};
