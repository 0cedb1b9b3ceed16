import type { RecordedEvent } from '@ledger/event-store';
import {
  foldEvents,
  leaseDecider,
  nodeDecider,
  ownerKey,
  ownerLivenessIn,
  Streams,
  type Decider,
  type LeaseCommand,
  type LeaseOwner,
  type LeaseState,
  type NodeCommand,
  type NodeState,
  type OwnerLivenessReport,
} from '@ledger/domain';
import { cascadeStep } from '../cascade-step';
import { initialCascadeState, type CascadeState } from '../cascade-state';

/**
 * A whole ledger in memory for property tests: the real deciders on an ordered log,
 * commands run as the application runs them (owner liveness read from node streams),
 * and the lease cascade driven step by step, with crashes that lose everything but
 * its last checkpoint.
 */
export class CascadeWorld {
  readonly log: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  readonly now = '2030-01-01T00:00:00.000Z';

  append(stream: string, events: { type: string; data: unknown }[], causationId: string | null = null): RecordedEvent[] {
    const existing = this.streams.get(stream) ?? [];
    const recorded = events.map((event, i) => ({
      id: `evt-${this.log.length + i + 1}`,
      type: event.type,
      data: event.data,
      metadata: { correlationId: 'c', causationId, actor: causationId ? 'system:lease-cascade' : 'test', requestId: null, schemaVersion: 1 },
      stream,
      revision: existing.length + i,
      position: this.log.length + i + 1,
      recordedAt: this.now,
    }));
    this.streams.set(stream, [...existing, ...recorded]);
    this.log.push(...recorded);
    return recorded;
  }

  /** A stream's events as its decider's: this world appends only what those deciders decided. */
  private fold<E, S>(decider: Pick<Decider<unknown, E, S, unknown>, 'initialState' | 'evolve'>, stream: string): S {
    return foldEvents(
      decider,
      (this.streams.get(stream) ?? []).map(({ type, data }) => ({ type, data }) as E),
    );
  }

  node(nodeId: string): NodeState {
    return this.fold(nodeDecider, Streams.node(nodeId));
  }

  ip(ip: string): LeaseState {
    return this.fold(leaseDecider, Streams.ip(ip));
  }

  ips(): string[] {
    return [...this.streams.keys()].filter((s) => s.startsWith('ip-')).map((s) => s.slice(3));
  }

  runNode(command: NodeCommand) {
    const decision = nodeDecider.decide(command, this.node(command.nodeId));
    if (decision.outcome === 'accepted') this.append(Streams.node(command.nodeId), decision.events);
    return decision;
  }

  isLive(owner: LeaseOwner): boolean {
    return ownerLivenessIn(this.node(owner.nodeId), owner).live;
  }

  /** Liveness of the given owners and of the address's active lease, as the application reads it. */
  livenessFor(ip: string, owners: LeaseOwner[]): OwnerLivenessReport {
    const active = this.ip(ip).active;
    const all = active ? [...owners, active.owner] : owners;
    return Object.fromEntries(all.map((owner) => [ownerKey(owner), ownerLivenessIn(this.node(owner.nodeId), owner)]));
  }

  private acquired = 0;

  /** Enlists the node if it is new, and asks for it for `consumer` (a fresh request and token each time). */
  acquire(nodeId: string, consumer: { controller: string; model: string }, requestPrefix: string): void {
    if (this.node(nodeId).profile === null)
      this.runNode({ type: 'EnlistNode', nodeId, profile: { hostname: nodeId, arch: 'amd64', cpuCount: 1, memoryMb: 1, tags: [], zone: 'z' } });
    const n = ++this.acquired;
    this.runNode({
      type: 'AcquireNode',
      nodeId,
      consumer,
      request: { requestId: `${requestPrefix}${n}`, fingerprint: 'f' },
      reservationKeyHash: null,
      tokenEntropy: `entropy-${n}`.padEnd(16, 'x'),
      now: this.now,
    });
  }

  /** Every owner a lease could name, live or ended, in the order they appeared. */
  owners(): LeaseOwner[] {
    return this.log.flatMap((e): LeaseOwner[] => {
      const d = e.data as { nodeId: string; token: string; deviceId: string };
      if (e.type === 'NodeAcquired') return [{ kind: 'allocation', token: d.token, nodeId: d.nodeId }];
      if (e.type === 'DeviceRegistered') return [{ kind: 'device', deviceId: d.deviceId, token: d.token, nodeId: d.nodeId }];
      return [];
    });
  }

  /** Ends the node's live allocation, if it has one, as its holder would. */
  releaseAllocation(nodeId: string): void {
    const token = this.node(nodeId).allocation?.token;
    if (token) this.runNode({ type: 'ReleaseAllocation', nodeId, token, ending: 'released', now: this.now, request: null });
  }

  /** Registers a container under the node's live allocation, if it has one. */
  registerDevice(nodeId: string, mac: string, hostname: string): void {
    const token = this.node(nodeId).allocation?.token;
    if (token) this.runNode({ type: 'RegisterDevice', nodeId, token, hostname, mac, now: this.now });
  }

  /** Removes one of the devices ever registered (`pick` modulo their count), if there is one. */
  removeDevice(pick: number): void {
    const devices = this.owners().filter((o) => o.kind === 'device');
    const device = devices[pick % Math.max(1, devices.length)];
    if (device?.kind === 'device') this.runNode({ type: 'RemoveDevice', nodeId: device.nodeId, deviceId: device.deviceId, now: this.now });
  }

  /** Asks for a DHCP lease for one of the owners ever seen (`pick` modulo their count, live or ended), if there is one. */
  grantToOwner(ip: string, mac: string, pick: number, expiresAt: string | null): void {
    const all = this.owners();
    const owner = all[pick % Math.max(1, all.length)];
    if (owner) this.runLease({ type: 'GrantLease', ip, mac, owner, leaseKind: 'dhcp', expiresAt, liveness: this.livenessFor(ip, [owner]), now: this.now });
  }

  /** The provider reports the node Ready while allocated: the ledger revokes the allocation. */
  revokeByProvider(nodeId: string): void {
    this.runNode({ type: 'ObserveProviderStatus', nodeId, providerStatus: 'Ready', source: 'maas', observedAt: this.now, now: this.now });
  }

  /** Renews the address's lease, whoever holds it (refused unless valid). */
  renewLease(ip: string, expiresAt: string | null): void {
    this.runLease({ type: 'RenewLease', ip, leaseId: null, expiresAt, liveness: this.livenessFor(ip, []), now: this.now });
  }

  /** Releases the address's lease, if one was ever granted. */
  releaseLease(ip: string): void {
    if (this.ip(ip).granted > 0) this.runLease({ type: 'ReleaseLease', ip, leaseId: null, reason: 'released', cause: null, now: this.now });
  }

  /** Expires the address's active lease, if it has one, at `now`. */
  expireLease(ip: string, now: string = this.now): void {
    const active = this.ip(ip).active;
    if (active) this.runLease({ type: 'ExpireLease', ip, leaseId: active.leaseId, now });
  }

  runLease(command: LeaseCommand, causationId: string | null = null) {
    const decision = leaseDecider.decide(command, this.ip(command.ip));
    if (decision.outcome === 'accepted') this.append(Streams.ip(command.ip), decision.events, causationId);
    return decision;
  }
}

/**
 * The cascade as the runner drives it, minus I/O: step an event, carry out its
 * releases on the world, checkpoint. `crash()` forgets everything since the checkpoint.
 */
export class SimulatedCascade {
  private state: CascadeState = initialCascadeState();
  private saved: string = JSON.stringify(this.state);
  releasesSent = 0;

  constructor(
    private readonly world: CascadeWorld,
    /** The checkpoint it starts from (a rebuild's), else the start of the log. */
    from?: CascadeState,
  ) {
    if (from) {
      this.state = structuredClone(from);
      this.checkpoint();
    }
  }

  get position(): number {
    return this.state.position;
  }

  get caughtUp(): boolean {
    return this.state.position >= this.world.log.length;
  }

  /**
   * Processes up to `events` events. With `crashAfter`, dies after carrying out that
   * many releases (of the current event, mid-way), never checkpointing that event.
   */
  run(events: number, options: { checkpointEvery?: number; crashAfter?: number } = {}): void {
    let sent = 0;
    let sinceCheckpoint = 0;
    for (let n = 0; n < events && !this.caughtUp; n++) {
      const event = this.world.log[this.state.position]; // positions are dense here: event p is at index p - 1
      const releases = cascadeStep(this.state, event);
      for (const release of releases) {
        if (options.crashAfter !== undefined && sent >= options.crashAfter) return this.crash();
        this.world.runLease(
          { type: 'ReleaseLease', ip: release.ip, leaseId: release.leaseId, reason: 'owner_ended', cause: release.cause, now: this.world.now },
          release.cause,
        );
        sent++;
        this.releasesSent++;
      }
      if (releases.length > 0 || ++sinceCheckpoint >= (options.checkpointEvery ?? 1)) {
        this.checkpoint();
        sinceCheckpoint = 0;
      }
    }
  }

  checkpoint(): void {
    this.saved = JSON.stringify(this.state);
  }

  crash(): void {
    this.state = JSON.parse(this.saved) as CascadeState;
  }

  drain(): void {
    while (!this.caughtUp) this.run(1_000);
  }
}
