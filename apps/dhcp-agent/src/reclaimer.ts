import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { createLedgerClient, type LedgerApi } from '@ledger/client';
import type { Logger } from 'pino';

/** An address a DHCP server should no longer hold: what an operator frees at dhcpd, by hand. */
export interface WouldReclaim {
  ip: string;
  mac: string;
  leaseId: string;
  reason: string;
  /** When it was first reported (wall clock, for the operator). */
  since: string;
}

export interface ReclaimStatus {
  /** Addresses freed at the server since the agent started. */
  reclaimed: number;
  /** Orphaned addresses waiting out their grace period. */
  waiting: number;
  /** Why reclaiming cannot go on right now (the server's control channel or the ledger), or null. */
  problem: string | null;
  /** A server the agent cannot free addresses at (ISC dhcpd): the addresses it would reclaim, for an operator to free. */
  wouldReclaim?: WouldReclaim[];
}

/** A lease the ledger ended because its owner ended, while a DHCP server still holds the address. */
export interface Orphan {
  ip: string;
  leaseId: string;
  mac: string;
  /** Why it is an orphan, in words: its owner ended, and which owner. */
  reason: string;
}

/** The DHCP server beside the agent, as the reclaimer needs it. */
export interface ReclaimServer {
  /** Its name in log lines. */
  readonly name: string;
  /** Addresses freed (and recorded) so far. */
  readonly reclaimed?: number;
  /** Whether the address is of the family this server hands out (the other family's server has its own agent). */
  serves(ip: string): boolean;
  /** What the server holds for the address now: its MAC (null when it knows none), or null when it holds nothing. */
  holder(ip: string): Promise<{ mac: string | null } | null>;
  /** Frees the address and records that; false when the server held nothing. Absent: the server has no way (reports only). */
  free?(orphan: Orphan, signal: AbortSignal): Promise<boolean>;
  /** First in each round: what a crash left unfinished. */
  settle?(signal: AbortSignal): Promise<void>;
}

/**
 * Frees at the DHCP server the addresses the ledger judges orphaned because their owner
 * ended (a released or torn-down machine, a removed device), once they stayed so for the
 * grace period (on the monotonic clock), and only while the server still holds each for
 * the MAC the ledger leased it to: a binding given to another client since is not touched.
 * A binding the ledger never granted is not reclaimed: nobody here knows whose it is.
 * Where the server offers no way to free an address (ISC dhcpd), each is reported once,
 * logged and listed in the status, for an operator to free. Nothing is lost when the
 * server or the ledger refuses: the address is simply tried again at the next round.
 */
export class Reclaimer {
  private readonly api: LedgerApi;
  /** When each orphan (by address and lease) was first seen, in performance.now() milliseconds. */
  private readonly firstSeen = new Map<string, number>();
  /** Orphans the server holds for another MAC: reported once, not asked again while they stay. */
  private readonly heldByOther = new Set<string>();
  /** Orphans reported for an operator to free (a server the agent cannot free them at). */
  private readonly reported = new Map<string, WouldReclaim>();
  private problem: string | null = null;

  constructor(
    private readonly options: { ledgerUrl: string; apiKey: string | null; graceMs: number; intervalMs: number },
    private readonly server: ReclaimServer,
    private readonly log: Logger,
  ) {
    this.api = createLedgerClient({ baseUrl: options.ledgerUrl, apiKey: options.apiKey });
  }

  status(): ReclaimStatus {
    const waiting = [...this.firstSeen.keys()].filter((key) => !this.reported.has(key)).length;
    const status: ReclaimStatus = { reclaimed: this.server.reclaimed ?? 0, waiting, problem: this.problem };
    return this.server.free ? status : { ...status, wouldReclaim: [...this.reported.values()] };
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.round(signal);
        this.setProblem(null);
      } catch (error) {
        if (signal.aborted) break;
        this.setProblem(error instanceof Error ? error.message : String(error));
      }
      await sleep(this.options.intervalMs, undefined, { signal }).catch(() => undefined);
    }
  }

  /** One look at the ledger's orphans: the new ones start their grace, those past it are reclaimed. */
  async round(signal: AbortSignal): Promise<void> {
    await this.server.settle?.(signal);
    const orphans = await this.orphans(signal);
    const now = performance.now();
    const keys = new Set(orphans.map((orphan) => `${orphan.ip} ${orphan.leaseId}`));
    for (const key of [...this.firstSeen.keys()]) if (!keys.has(key)) this.firstSeen.delete(key);
    for (const key of [...this.heldByOther]) if (!keys.has(key)) this.heldByOther.delete(key);
    for (const [key, report] of [...this.reported]) {
      if (keys.has(key)) continue;
      this.reported.delete(key);
      this.log.info({ ip: report.ip, leaseId: report.leaseId }, `no longer to reclaim: ${this.server.name} let the address go`);
    }
    for (const orphan of orphans) {
      const key = `${orphan.ip} ${orphan.leaseId}`;
      const since = this.firstSeen.get(key) ?? now;
      if (!this.firstSeen.has(key)) this.log.info({ ip: orphan.ip, leaseId: orphan.leaseId, graceMs: this.options.graceMs }, 'orphaned: its owner ended');
      this.firstSeen.set(key, since);
      if (now - since < this.options.graceMs || this.heldByOther.has(key) || this.reported.has(key)) continue;
      await this.reclaim(orphan, key, signal);
    }
  }

  private async reclaim(orphan: Orphan, key: string, signal: AbortSignal): Promise<void> {
    const held = await this.server.holder(orphan.ip);
    const server = this.server.name;
    if (held === null) {
      this.log.info({ ip: orphan.ip, leaseId: orphan.leaseId }, `not reclaimed: ${server} holds no lease for the address`);
      this.firstSeen.delete(key);
      return;
    }
    if (held.mac !== orphan.mac) {
      this.heldByOther.add(key);
      this.log.info(
        { ip: orphan.ip, leaseId: orphan.leaseId, leasedTo: orphan.mac, serverHolds: held.mac },
        `not reclaimed: ${server} holds the address for another MAC`,
      );
      return;
    }
    if (!this.server.free) {
      this.reported.set(key, { ip: orphan.ip, mac: orphan.mac, leaseId: orphan.leaseId, reason: orphan.reason, since: new Date().toISOString() });
      this.log.warn(
        { ip: orphan.ip, mac: orphan.mac, leaseId: orphan.leaseId, reason: orphan.reason },
        `would reclaim at ${server}: ${orphan.reason}; ${server} has no control channel, so free the address there (docs/dhcp-agent.md)`,
      );
      return;
    }
    const freed = await this.server.free(orphan, signal);
    this.firstSeen.delete(key);
    if (!freed) this.log.info({ ip: orphan.ip, leaseId: orphan.leaseId }, `not reclaimed: ${server} let the address go meanwhile`);
  }

  private async orphans(signal: AbortSignal): Promise<Orphan[]> {
    const { data, response } = await this.api
      .GET('/v1/leases', { params: { query: { status: 'orphaned' } }, signal: AbortSignal.any([signal, AbortSignal.timeout(30_000)]) })
      .catch((error: unknown) => {
        signal.throwIfAborted();
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        throw new Error(`cannot reach the ledger at ${this.options.ledgerUrl} (${cause ?? (error instanceof Error ? error.message : String(error))})`);
      });
    if (!response.ok || !data) throw new Error(`the ledger answered ${response.status} to the list of orphaned leases`);
    const orphans: Orphan[] = [];
    for (const lease of data.leases) {
      // Only an ended lease whose owner ended: an active one is still being cascaded, a leaseless one was never granted.
      if (lease.leaseId === null || lease.leaseId === undefined || lease.ended?.reason !== 'owner_ended' || !lease.mac) continue;
      // An address of the other family is another DHCP server's (a DHCPv4 server's memfile never holds an IPv6 lease).
      if (!this.server.serves(lease.ip)) continue;
      orphans.push({ ip: lease.ip, leaseId: lease.leaseId, mac: lease.mac.toLowerCase(), reason: orphanReason(lease.owner) });
    }
    return orphans;
  }

  private setProblem(problem: string | null): void {
    if (problem !== null && problem !== this.problem) this.log.error({ server: this.server.name }, `cannot reclaim: ${problem}`);
    if (problem === null && this.problem !== null) this.log.info({ was: this.problem }, 'reclaiming again');
    this.problem = problem;
  }
}

/** Which owner ended, as the ledger's listing names it. */
const orphanReason = (owner: Record<string, unknown> | null | undefined): string => {
  const device = typeof owner?.deviceId === 'string' ? `device ${owner.deviceId}` : null;
  const allocation = typeof owner?.token === 'string' ? `allocation ${owner.token}` : null;
  const named = [device, allocation].filter(Boolean).join(' of ');
  return `its lease owner ended${named ? ` (${named})` : ''}`;
};
