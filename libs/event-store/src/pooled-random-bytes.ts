import { randomFillSync } from 'node:crypto';

const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/**
 * `size` bytes from the system's CSPRNG, drawn from a 4 KB pool refilled in one call (as
 * Node's own randomUUID does): a call per id or token cost a trip into the crypto binding
 * each time. The bytes are a view into the pool: read or copy them before the next call.
 */
export const pooledRandomBytes = (size: number): Buffer => {
  if (size > pool.length) throw new RangeError(`pooledRandomBytes: at most ${pool.length} bytes at a time`);
  if (poolOffset + size > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += size;
  return pool.subarray(poolOffset - size, poolOffset);
};
