/** One place where two read models disagree. */
export interface Difference {
  path: string;
  live: unknown;
  rebuilt: unknown;
}

const show = (value: unknown): string => {
  if (value === undefined) return '(absent)';
  const json = JSON.stringify(value);
  return json.length > 160 ? `${json.slice(0, 157)}...` : json;
};

export const describeDifference = (difference: Difference): string => `${difference.path}: live ${show(difference.live)}, rebuilt ${show(difference.rebuilt)}`;

/**
 * Structural differences between two plain-data values (key order aside), at most
 * `max`, each named by its path: what a reader needs to see where a read model drifted.
 */
export const diffValues = (live: unknown, rebuilt: unknown, max = 50, path = '', out: Difference[] = []): Difference[] => {
  if (out.length >= max || Object.is(live, rebuilt)) return out;
  const bothObjects = live !== null && rebuilt !== null && typeof live === 'object' && typeof rebuilt === 'object';
  if (!bothObjects || Array.isArray(live) !== Array.isArray(rebuilt)) {
    out.push({ path: path || '(root)', live, rebuilt });
    return out;
  }
  if (Array.isArray(live) && Array.isArray(rebuilt)) {
    if (live.length !== rebuilt.length) out.push({ path: `${path}.length`, live: live.length, rebuilt: rebuilt.length });
    for (let i = 0; i < Math.min(live.length, rebuilt.length) && out.length < max; i++) diffValues(live[i], rebuilt[i], max, `${path}[${i}]`, out);
    return out;
  }
  const a = live as Record<string, unknown>;
  const b = rebuilt as Record<string, unknown>;
  for (const key of Object.keys(a)) {
    if (out.length >= max) break;
    const child = path ? `${path}.${key}` : key;
    if (!(key in b)) out.push({ path: child, live: a[key], rebuilt: undefined });
    else diffValues(a[key], b[key], max, child, out);
  }
  for (const key of Object.keys(b)) {
    if (out.length >= max) break;
    if (!(key in a)) out.push({ path: path ? `${path}.${key}` : key, live: undefined, rebuilt: b[key] });
  }
  return out;
};
