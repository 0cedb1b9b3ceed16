import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mintApiKey } from './api-key';
import { ROLES, type ConsumerScope, type Role } from './principal';

export interface StoredKey {
  keyId: string;
  name: string;
  role: Role;
  scope: ConsumerScope | null;
  keyHash: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface KeysFileContent {
  version: 1;
  keys: StoredKey[];
}

export class KeysFileError extends Error {
  override readonly name = 'KeysFileError';
}

const validate = (content: unknown, path: string): KeysFileContent => {
  const fail = (why: string): never => {
    throw new KeysFileError(`${path}: ${why}`);
  };
  if (!content || typeof content !== 'object' || (content as KeysFileContent).version !== 1 || !Array.isArray((content as KeysFileContent).keys)) {
    fail('expected {"version": 1, "keys": [...]}');
  }
  (content as KeysFileContent).keys.forEach((key, i) => {
    if (typeof key.keyId !== 'string' || typeof key.keyHash !== 'string' || typeof key.name !== 'string') fail(`keys[${i}] needs keyId, name and keyHash`);
    if (!ROLES.includes(key.role)) fail(`keys[${i}].role must be one of ${ROLES.join(', ')}`);
    if (key.role === 'consumer' && (!key.scope || typeof key.scope.controller !== 'string')) fail(`keys[${i}]: a consumer key needs scope.controller`);
  });
  return content as KeysFileContent;
};

export const readKeysFile = (path: string): KeysFileContent => validate(JSON.parse(readFileSync(path, 'utf8')), path);

/** Written whole to a temp file and renamed, so a reader never sees half a file. */
export const writeKeysFile = (path: string, content: KeysFileContent): void => {
  // The data directory, if this creates it: for the ledger's user only, like everything in it.
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
};

export const addKey = (path: string, entry: { name: string; role: Role; scope: ConsumerScope | null }, now: Date): { key: string; stored: StoredKey } => {
  const content = existsSync(path) ? readKeysFile(path) : { version: 1 as const, keys: [] };
  const { keyId, key, keyHash } = mintApiKey();
  const stored: StoredKey = { keyId, ...entry, keyHash, createdAt: now.toISOString(), revokedAt: null };
  writeKeysFile(path, { ...content, keys: [...content.keys, stored] });
  return { key, stored };
};

export const revokeKey = (path: string, keyId: string, now: Date): boolean => {
  const content = readKeysFile(path);
  const target = content.keys.find((k) => k.keyId === keyId && k.revokedAt === null);
  if (!target) return false;
  target.revokedAt = now.toISOString();
  writeKeysFile(path, content);
  return true;
};

/**
 * First start with no keys file: create one holding an operator key's hash and write the
 * key itself to `<dataDir>/operator.key` (mode 0600), so the ledger still starts with one
 * command and nobody has to invent a secret. Returns that path, or null if a file existed.
 */
export const bootstrapKeysFile = (path: string, dataDir: string, now: Date): string | null => {
  if (existsSync(path)) return null;
  const { key } = addKey(path, { name: 'operator', role: 'operator', scope: null }, now);
  const keyPath = join(dataDir, 'operator.key');
  writeFileSync(keyPath, `${key}\n`, { mode: 0o600 });
  chmodSync(keyPath, 0o600);
  return keyPath;
};

export const modifiedAt = (path: string): number => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
};
