import { pooledRandomBytes, timeOrderedUuid } from '@ledger/event-store';

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
  // Time-ordered (v7): event ids are indexed, and ordered keys make appends cheap (see timeOrderedUuid).
  uuid: () => timeOrderedUuid(),
  tokenEntropy: () => pooledRandomBytes(16).toString('base64url'),
  secretKey: () => `rk_${pooledRandomBytes(24).toString('base64url')}`,
  fraction: () => Math.random(),
};
