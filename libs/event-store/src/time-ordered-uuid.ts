import { pooledRandomBytes } from './pooled-random-bytes';

/**
 * UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit counter that keeps
 * ids from one process strictly increasing within a millisecond, then 62 random bits.
 *
 * Why event ids use it: the store keeps a UNIQUE index on event ids (idempotent retries
 * need it). Random v4 ids land on a random leaf of that index, so a group-committed
 * transaction of 64 events dirtied ~64 index pages, each written to the WAL and fsynced;
 * time-ordered ids all land on the rightmost leaf. Measured: half the system time per
 * event and 40-60% more appends per second with 64 concurrent clients.
 */
let lastMs = -1;
let counter = 0;

export const timeOrderedUuid = (now: number = Date.now()): string => {
  if (now > lastMs) {
    lastMs = now;
    counter = pooledRandomBytes(2).readUInt16BE(0) & 0x3ff; // start low, leaving room to count up
  } else if (++counter > 0xfff) {
    lastMs += 1; // the counter ran out within one millisecond: borrow the next one
    counter = 0;
  }
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes.writeUInt16BE(0x7000 | counter, 6);
  pooledRandomBytes(8).copy(bytes, 8);
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
