import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { LedgerAccess } from '../ledger/ledger-access';
import type { MaasUpstream } from '../maas/maas-upstream';

interface MaasMachine {
  system_id?: unknown;
  hostname?: unknown;
  architecture?: unknown;
  cpu_count?: unknown;
  memory?: unknown;
  tag_names?: unknown;
  zone?: { name?: unknown } | null;
  pool?: { name?: unknown } | null;
  status_name?: unknown;
  owner?: unknown;
}

/** A first sight of a machine held for less than this may be an allocation whose MAAS call is still in flight: reported at the next poll instead. */
const FIRST_SIGHT_GRACE_MS = 60_000;

const text = (value: unknown, max: number): string | undefined => (typeof value === 'string' && value.length > 0 ? value.slice(0, max) : undefined);
const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

/**
 * Follows MAAS's machines so that what an operator does behind the facade's back reaches
 * the ledger (seed 1's Charlie): machines MAAS has are enlisted as ledger nodes, and each
 * change of a machine's status is posted as an observation. A machine released out of
 * band shows Ready, and the ledger revokes the allocation that held it; a failed
 * deployment is recorded against the allocation; a finished one reported deployed.
 * A machine MAAS shows owned by another MAAS user while the ledger holds it was re-owned
 * behind the holder's back (perhaps faster than a poll could see it pass through Ready):
 * the observation says so, and the ledger revokes the token.
 * Each observation carries the time MAAS was asked, so a status read before an allocation
 * began can never revoke it; only changes are posted (what this process last saw), so a
 * machine the facade is allocating is never reported Ready between the ledger's acquire and
 * MAAS's allocate.
 */
export class MaasWatcher {
  private readonly lastSeen = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly maas: MaasUpstream,
    private readonly ledger: LedgerAccess,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  start(): void {
    const tick = async () => {
      try {
        await this.pollOnce();
      } catch (error) {
        this.logger.warn({ err: error }, 'reading MAAS or reporting to the ledger failed; next poll retries');
      }
      if (!this.stopped) this.timer = setTimeout(() => void tick(), this.intervalMs);
    };
    void tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  async pollOnce(): Promise<void> {
    const correlationId = `maas-watch-${randomUUID()}`;
    const api = this.ledger.asFacade(correlationId);
    const observedAt = this.clock().toISOString();
    const maasUser = await this.maas.whoAmI();
    const machines = (await this.maas.list('machines/')) as MaasMachine[];
    const { data, response } = await api.GET('/v1/nodes', {});
    if (!data) throw new Error(`the ledger answered GET /v1/nodes with ${response.status}`);
    const nodes = new Map(data.nodes.map((node) => [node.nodeId, node]));
    for (const machine of machines) {
      const nodeId = text(machine.system_id, 128);
      const status = text(machine.status_name, 64);
      if (!nodeId || !status) continue;
      if (!nodes.has(nodeId)) await this.enlist(api, nodeId, machine);
      // The facade's key is a provider's: it sees every allocation whole, never as foreign.
      const held = nodes.get(nodeId)?.allocation;
      const allocation = held && !('foreign' in held) ? held : null;
      const owner = typeof machine.owner === 'string' && machine.owner.length > 0 ? machine.owner.slice(0, 64) : null;
      const seen = `${status}|${owner ?? ''}`;
      const firstSightOfFreshAllocation =
        !this.lastSeen.has(nodeId) && allocation && Date.parse(allocation.acquiredAt) > Date.parse(observedAt) - FIRST_SIGHT_GRACE_MS;
      if (this.lastSeen.get(nodeId) !== seen && !firstSightOfFreshAllocation) {
        const heldOutOfBand = owner !== null && owner !== maasUser;
        const source = heldOutOfBand ? `maas-facade: owned at MAAS by ${owner}` : 'maas-facade';
        const observed = await api.POST('/v1/observations/nodes', {
          body: { nodeId, providerStatus: status, observedAt, source, ...(heldOutOfBand ? { heldOutOfBand } : {}) },
        });
        if (observed.data) {
          this.lastSeen.set(nodeId, seen);
          this.logger.info({ correlationId, nodeId, status, owner, outcome: observed.data.status }, 'MAAS status observed');
        }
      }
      if (status === 'Deployed' && allocation?.status === 'deploying') {
        await api.POST('/v1/allocations/{token}/deployed', { params: { path: { token: allocation.token } }, body: {} });
      }
    }
  }

  private async enlist(api: ReturnType<LedgerAccess['asFacade']>, nodeId: string, machine: MaasMachine): Promise<void> {
    const tags = Array.isArray(machine.tag_names) ? machine.tag_names.filter((t): t is string => typeof t === 'string' && t.length <= 64).slice(0, 64) : [];
    const arch = text(machine.architecture, 64)?.split('/')[0];
    const cpuCount = count(machine.cpu_count);
    const memoryMb = count(machine.memory);
    const zone = text(machine.zone?.name, 64);
    const pool = text(machine.pool?.name, 64);
    const { response } = await api.POST('/v1/nodes', {
      body: {
        nodeId,
        hostname: text(machine.hostname, 253) ?? nodeId,
        ...(arch ? { arch } : {}),
        ...(cpuCount !== undefined ? { cpuCount } : {}),
        ...(memoryMb !== undefined ? { memoryMb } : {}),
        tags,
        ...(zone ? { zone } : {}),
        ...(pool ? { pool } : {}),
      },
    });
    if (response.status !== 201 && response.status !== 409) throw new Error(`the ledger answered enlisting ${nodeId} with ${response.status}`);
  }
}
