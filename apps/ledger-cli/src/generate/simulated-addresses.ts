import { leaseDecider, Streams, type LeaseCommand, type LeaseState } from '@ledger/domain';
import type { ExpectedRevision, NewEvent } from '@ledger/event-store';
import { LEDGER_UPCASTERS } from '@ledger/projections';
import type { SeededRandom } from './seeded-random';
import type { SimulatedAppend } from './simulated-append';

/** What the addresses share with the rest of the simulation: its random source, its clock, its envelopes. */
export interface SimulationWorld {
  readonly random: SeededRandom;
  now(): number;
  envelope(event: { type: string; data: unknown }, actor: string, correlationId: string, requestId: string | null): NewEvent;
}

/**
 * The simulation's container addresses (seed 2): each address's lease stream decided by the
 * real lease decider, and the leases each allocation's containers hold, released by the
 * lease cascade when the allocation ends, as the ledger's process manager does.
 */
export class SimulatedAddresses {
  private readonly streams = new Map<string, { state: LeaseState; revision: number }>();
  private readonly heldBy = new Map<string, { ip: string; leaseId: string }[]>();
  private readonly pool: string[];

  constructor(
    nodes: number,
    private readonly world: SimulationWorld,
  ) {
    // Four container addresses per node, in 10.0.0.0/8.
    this.pool = Array.from({ length: nodes * 4 }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${(i & 255) + 1}`);
  }

  /** An address with no active lease, or null after a few tries (a full pool). */
  free(): string | null {
    for (let attempt = 0; attempt < 8; attempt++) {
      const ip = this.world.random.pick(this.pool);
      if (!this.streams.get(ip)?.state.active) return ip;
    }
    return null;
  }

  /** Remembers a lease an allocation's container holds, for the cascade. */
  hold(token: string, ip: string, leaseId: string): void {
    this.heldBy.set(token, [...(this.heldBy.get(token) ?? []), { ip, leaseId }]);
  }

  /** Runs the real lease decider on one address's stream. */
  lease(ip: string, command: LeaseCommand, actor: string, cause: { id: string; correlationId: string } | null): SimulatedAppend[] {
    const address = this.streams.get(ip) ?? { state: leaseDecider.initialState(), revision: -1 };
    const decision = leaseDecider.decide(command, address.state);
    if (decision.outcome === 'refused' || decision.events.length === 0) return [];
    const expectedRevision: ExpectedRevision = address.revision < 0 ? 'no_stream' : address.revision;
    this.streams.set(ip, { state: decision.events.reduce(leaseDecider.evolve, address.state), revision: address.revision + decision.events.length });
    const now = this.world.now();
    const correlationId = cause?.correlationId ?? this.world.random.uuid(now);
    return [
      {
        stream: Streams.ip(ip),
        events: decision.events.map((event) => ({
          ...this.world.envelope(event, actor, correlationId, null),
          metadata: { correlationId, causationId: cause?.id ?? null, actor, requestId: null, schemaVersion: LEDGER_UPCASTERS.currentVersion(event.type) },
        })),
        expectedRevision,
        at: new Date(now),
      },
    ];
  }

  /** The lease cascade: the addresses an ended allocation's containers held are released, caused by the ending. */
  cascade(append: SimulatedAppend): SimulatedAppend[] {
    const ending = append.events.find((event) => event.type === 'AllocationReleased' || event.type === 'AllocationRevoked');
    if (!ending) return [];
    const token = (ending.data as { token: string }).token;
    const held = this.heldBy.get(token) ?? [];
    this.heldBy.delete(token);
    const now = new Date(this.world.now()).toISOString();
    return held.flatMap(({ ip, leaseId }) =>
      this.lease(ip, { type: 'ReleaseLease', ip, leaseId, reason: 'owner_ended', cause: ending.id, now }, 'system:lease-cascade', {
        id: ending.id,
        correlationId: ending.metadata.correlationId,
      }),
    );
  }
}
