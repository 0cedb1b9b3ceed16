/** MAAS's allocate parameters the ledger decides on (pool and zone included); the rest are MAAS's to check on the machine the ledger picked. */
export interface AllocateRequest {
  name: string | null;
  systemId: string | null;
  agentName: string | null;
  constraints: { arch?: string; minCpu?: number; minMemoryMb?: number; tags?: string[]; notTags?: string[]; zone?: string; pool?: string };
  /**
   * Everything but the name and system_id, forwarded to MAAS with the picked machine's
   * system_id: MAAS checks what the ledger does not know (storage, interfaces...) on that
   * machine, and again what it does (a machine moved to another pool since it was
   * enlisted), and a refusal moves the pick on.
   */
  forwarded: URLSearchParams;
}

const NAMING = new Set(['name', 'system_id']);

const listOf = (form: URLSearchParams, key: string): string[] =>
  form
    .getAll(key)
    .flatMap((value) => value.split(','))
    .map((tag) => tag.trim())
    .filter(Boolean);

/** A form's allocate request, or MAAS's kind of answer to a bad form: each bad field with its message. */
export const parseAllocate = (form: URLSearchParams): AllocateRequest | { errors: Record<string, string[]> } => {
  const errors: Record<string, string[]> = {};
  const count = (key: string): number | undefined => {
    const value = form.get(key);
    if (value === null || value === '') return undefined;
    if (!/^\d{1,9}(\.\d+)?$/.test(value)) {
      errors[key] = [`Invalid number: ${value.slice(0, 64)}`];
      return undefined;
    }
    return Math.ceil(Number(value));
  };
  const minCpu = count('cpu_count');
  const minMemoryMb = count('mem');
  const arch = form.get('arch')?.split('/')[0];
  const tags = listOf(form, 'tags');
  const notTags = listOf(form, 'not_tags');
  const zone = form.get('zone');
  const pool = form.get('pool');
  // A dry run would hold a machine in the ledger that MAAS never allocated.
  if (form.has('dry_run')) errors.dry_run = ['A dry run is not offered through the provisioning ledger: allocate, then release.'];
  for (const [key, values] of [
    ['tags', tags],
    ['not_tags', notTags],
  ] as const) {
    if (values.length > 64 || values.some((tag) => tag.length > 64)) errors[key] = ['At most 64 tags of at most 64 characters.'];
  }
  for (const [key, value] of [
    ['zone', zone],
    ['pool', pool],
  ] as const) {
    if (value && value.length > 64) errors[key] = ['At most 64 characters.'];
  }
  if (Object.keys(errors).length > 0) return { errors };
  const forwarded = new URLSearchParams();
  for (const [key, value] of form) if (!NAMING.has(key)) forwarded.append(key, value);
  return {
    name: form.get('name') || null,
    systemId: form.get('system_id') || null,
    agentName: form.get('agent_name') || null,
    constraints: {
      ...(arch ? { arch } : {}),
      ...(minCpu !== undefined ? { minCpu } : {}),
      ...(minMemoryMb !== undefined ? { minMemoryMb } : {}),
      ...(tags.length ? { tags } : {}),
      ...(notTags.length ? { notTags } : {}),
      ...(zone ? { zone } : {}),
      ...(pool ? { pool } : {}),
    },
    forwarded,
  };
};
