import { createHash } from 'node:crypto';
import { readSync, type Stats } from 'node:fs';

/** Bytes at the head of a file that tell it apart from a later file on a reused inode. */
export const FINGERPRINT_BYTES = 256;

/** Which file this is, whatever its name now: device and inode, and a digest of its first bytes. */
export interface FileIdentity {
  dev: number;
  ino: number;
  /** sha256 of the first `fingerprintLength` bytes. */
  fingerprint: string;
  fingerprintLength: number;
}

export const fingerprintOf = (fd: number, length: number): string => {
  const head = Buffer.alloc(length);
  const read = length === 0 ? 0 : readSync(fd, head, 0, length, 0);
  return createHash('sha256').update(head.subarray(0, read)).digest('hex');
};

export const identityOf = (fd: number, stats: Stats): FileIdentity => {
  const fingerprintLength = Math.min(FINGERPRINT_BYTES, stats.size);
  return { dev: stats.dev, ino: stats.ino, fingerprint: fingerprintOf(fd, fingerprintLength), fingerprintLength };
};

/** The same file: same device and inode, and its first bytes still those recorded (an inode reused by a new file is not). */
export const sameFile = (fd: number, stats: Stats, identity: FileIdentity): boolean =>
  stats.dev === identity.dev &&
  stats.ino === identity.ino &&
  stats.size >= identity.fingerprintLength &&
  fingerprintOf(fd, identity.fingerprintLength) === identity.fingerprint;
