/**
 * Owner data: the key/value labels an allocation's holder puts on its machine (Juju's
 * `juju-model-uuid`, `juju-controller-uuid`, `juju-machine-id`, `juju-is-controller`, and a
 * model's resource tags), as MAAS keeps them per owner. A change names keys to set and, with
 * an empty value, keys to remove (MAAS's rule). The bounds keep the log and the read model
 * small whatever a client sends: MAAS itself keeps keys of at most 255 characters.
 */
export type OwnerData = Readonly<Record<string, string>>;

export const MAX_OWNER_DATA_KEYS = 64;
export const MAX_OWNER_DATA_KEY_LENGTH = 255;
export const MAX_OWNER_DATA_VALUE_LENGTH = 1024;

// Control characters: a label is text to show in a timeline, never a terminal escape.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why a key/value change is not one the ledger takes, naming the first bad key; null when it is. */
export const ownerDataProblem = (value: unknown): string | null => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'must be an object of string keys and string values';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_OWNER_DATA_KEYS) return `must have at most ${MAX_OWNER_DATA_KEYS} keys`;
  for (const [key, item] of entries) {
    const shown = JSON.stringify(key.slice(0, 64));
    if (key.length === 0 || key.length > MAX_OWNER_DATA_KEY_LENGTH || CONTROL.test(key)) {
      return `key ${shown} must be 1-${MAX_OWNER_DATA_KEY_LENGTH} characters without control characters`;
    }
    if (typeof item !== 'string') return `key ${shown} must have a string value (an empty string removes the key)`;
    if (item.length > MAX_OWNER_DATA_VALUE_LENGTH || CONTROL.test(item)) {
      return `key ${shown} must have a value of at most ${MAX_OWNER_DATA_VALUE_LENGTH} characters without control characters`;
    }
  }
  return null;
};

/** What a change does to `current`: the keys it sets to a new value and the keys it removes; nothing when it changes nothing. */
export const ownerDataChange = (current: OwnerData, change: OwnerData): { set: Record<string, string>; removed: string[] } => {
  const set: [string, string][] = [];
  const removed: string[] = [];
  for (const [key, value] of Object.entries(change)) {
    const held = Object.hasOwn(current, key) ? current[key] : undefined;
    if (value === '' && held !== undefined) removed.push(key);
    else if (value !== '' && held !== value) set.push([key, value]);
  }
  // fromEntries defines own properties: a key named like a prototype member stays a plain key.
  return { set: Object.fromEntries(set), removed: removed.sort() };
};

/** The owner data after a change was applied. */
export const applyOwnerData = (current: OwnerData, change: { set: OwnerData; removed: readonly string[] }): OwnerData => {
  const gone = new Set(change.removed);
  return Object.fromEntries([...Object.entries(current).filter(([key]) => !gone.has(key) && !Object.hasOwn(change.set, key)), ...Object.entries(change.set)]);
};
