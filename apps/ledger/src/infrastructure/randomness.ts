import { randomBytes, randomUUID } from 'node:crypto';

/** Every random value the ledger makes, injected so tests can make them predictable. */
export interface Randomness {
  uuid(): string;
  /** URL-safe entropy for provisioning tokens. */
  tokenEntropy(): string;
  /** A secret handed to a reservation holder. */
  secretKey(): string;
  /** In [0, 1): for jitter and spreading candidates. */
  fraction(): number;
}

export const cryptoRandomness: Randomness = {
  uuid: () => randomUUID(),
  tokenEntropy: () => randomBytes(16).toString('base64url'),
  secretKey: () => `rk_${randomBytes(24).toString('base64url')}`,
  fraction: () => Math.random(),
};
