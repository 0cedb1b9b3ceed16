import type { LiveMachine } from '../ledger/caller-machines';

/**
 * The caller's view of ids: MAAS's system_id of each machine it holds is replaced by the
 * allocation's token, in paths, query parameters, form fields and response bodies, and
 * back. A new allocation of the same machine is a new token, so a new instance id.
 */
export class IdMap {
  private readonly toToken = new Map<string, string>();
  private readonly toNode = new Map<string, string>();

  constructor(live: readonly LiveMachine[]) {
    for (const machine of live) {
      this.toToken.set(machine.nodeId, machine.token);
      this.toNode.set(machine.token, machine.nodeId);
    }
  }

  maasIdOf(callerId: string): string | undefined {
    return this.toNode.get(callerId);
  }

  callerIdOf(maasId: string): string | undefined {
    return this.toToken.get(maasId);
  }

  /** A MAAS answer's body as the caller sees it: every string that is, or has a path segment that is, a held machine's id. */
  toCaller(value: unknown): unknown {
    return mapStrings(value, (text) => replaceIds(text, this.toToken));
  }

  /** The caller's parameters (query or form) as MAAS must get them. */
  paramsToMaas(params: URLSearchParams): URLSearchParams {
    const mapped = new URLSearchParams();
    for (const [key, value] of params) mapped.append(key, replaceIds(value, this.toNode));
    return mapped;
  }

  pathToMaas(path: string): string {
    return replaceIds(path, this.toNode);
  }
}

const replaceIds = (text: string, ids: ReadonlyMap<string, string>): string => {
  const whole = ids.get(text);
  if (whole !== undefined) return whole;
  if (!text.includes('/')) return text;
  return text
    .split('/')
    .map((segment) => ids.get(segment) ?? segment)
    .join('/');
};

const mapStrings = (value: unknown, map: (text: string) => string): unknown => {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === 'object') {
    const mapped: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) mapped[key] = mapStrings(item, map);
    return mapped;
  }
  return value;
};
