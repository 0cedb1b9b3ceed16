import { keyIdOf } from './api-key';

/** The consumer part of every MAAS-format key the ledger issues. */
export const MAAS_KEY_CONSUMER = 'ledger';

/**
 * A ledger key in MAAS's API key format, `consumer:token:secret` (OAuth 1.0 PLAINTEXT),
 * for a client that speaks MAAS's API (Juju) to the MAAS facade: the token is the key's
 * id and the secret its secret, so the facade rebuilds the ledger key from the request's
 * Authorization header and needs no key list of its own. Null if `ledgerKey` is not one.
 */
export const maasKeyOf = (ledgerKey: string): string | null => {
  const keyId = keyIdOf(ledgerKey);
  if (!keyId) return null;
  return `${MAAS_KEY_CONSUMER}:${keyId}:${ledgerKey.slice(`lk_${keyId}_`.length)}`;
};

/** The ledger key an OAuth consumer key, token and token secret stand for, or null if they are not a ledger key's parts. */
export const ledgerKeyOfMaasCredentials = (consumerKey: string, tokenKey: string, tokenSecret: string): string | null => {
  if (consumerKey !== MAAS_KEY_CONSUMER) return null;
  const key = `lk_${tokenKey}_${tokenSecret}`;
  return keyIdOf(key) === tokenKey ? key : null;
};
