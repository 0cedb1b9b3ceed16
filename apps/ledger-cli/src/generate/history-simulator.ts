import { nodeDecider, ownerKey, ownerLivenessIn, Streams, type LeaseOwner, type NodeCommand, type NodeState, type Refusal } from '@ledger/domain';
import type { ExpectedRevision } from '@ledger/event-store';
import { SeededRandom } from './seeded-random';
import { SimulatedAddresses } from './simulated-addresses';
import { actorOf, SimulatedConsumers } from './simulated-consumers';
import { refusalRecord } from './simulated-refusal';
import { enlistCommand, maintenanceCommand, powerSyncCommand, providerStatusCommand, reserveCommand } from './simulated-commands';
import { envelope, type SimulatedAppend } from './simulated-append';

export type { SimulatedAppend };

export interface SimulationOptions {
  nodes: number;
  seed: number;
  /** Simulated time of the first step. */
  start: Date;
  /** Mean simulated time between two steps. */
  meanGapMs: number;
}

interface SimulatedNode {
  nodeId: string;
  state: NodeState;
  revision: number;
  /** Tokens this node issued, for stale-token attempts. */
  tokens: string[];
  reservationKeyHash: string | null;
}

/**
 * Realistic node histories, decided by the real node decider: nodes enlisted, reserved,
 * acquired (each acquire routed on its request stream first, as the ledger does),
 * deployed, failing deployment, released by their holder, by force, by model, or
 * revoked when an operator frees them out of band (seed 1), and stale tokens refused
 * and the refusal recorded. Only what the decider accepts is written, so the log is
 * one the ledger itself could have produced.
 */
export class HistorySimulator {
  private readonly random: SeededRandom;
  private readonly nodes: SimulatedNode[];
  private now: number;
  private readonly consumers: SimulatedConsumers;
  private readonly addresses: SimulatedAddresses;

  constructor(private readonly options: SimulationOptions) {
    this.random = new SeededRandom(options.seed);
    this.now = options.start.getTime();
    this.consumers = new SimulatedConsumers(this.random);
    this.addresses = new SimulatedAddresses(options.nodes, {
      random: this.random,
      now: () => this.now,
      envelope: (event, actor, correlationId, requestId) => envelope(this.random, this.now, event, actor, correlationId, requestId),
    });
    this.nodes = Array.from({ length: options.nodes }, (_, i) => ({
      nodeId: `node-${String(i + 1).padStart(5, '0')}`,
      state: nodeDecider.initialState(),
      revision: -1,
      tokens: [],
      reservationKeyHash: null,
    }));
  }

  /** One step of the simulated world: zero or more appends. */
  step(): SimulatedAppend[] {
    this.now += Math.max(1, Math.round(this.random.gap(this.options.meanGapMs)));
    const node = this.random.pick(this.nodes);
    return this.act(node);
  }

  private act(node: SimulatedNode): SimulatedAppend[] {
    const { state } = node;
    const r = this.random;
    if (state.profile === null) return this.enlist(node);
    if (node.tokens.length > 0 && r.chance(0.03)) return this.staleRelease(node);
    if (r.chance(0.04)) return this.powerSync(node);
    if (r.chance(0.003)) return this.maintenance(node);
    const allocation = state.allocation;
    if (!allocation) {
      // A node in maintenance or faulted mostly waits; now and then someone tries it anyway and is refused.
      if (state.health.maintenance && !r.chance(0.05)) return r.chance(0.3) ? this.maintenance(node) : [];
      if (Object.keys(state.health.faults).length > 0 && !r.chance(0.05)) return r.chance(0.5) ? this.powerSync(node) : [];
      const reserved = state.reservation && Date.parse(state.reservation.expiresAt) > this.now ? state.reservation : null;
      if (reserved) {
        if (r.chance(0.6)) return this.acquire(node, node.reservationKeyHash);
        if (r.chance(0.5))
          return this.decide(
            node,
            { type: 'CancelReservation', nodeId: node.nodeId, reservationId: reserved.reservationId, keyHash: node.reservationKeyHash!, now: this.iso() },
            'agent:picker',
          );
        return [];
      }
      if (r.chance(0.08)) return this.reserve(node);
      return this.acquire(node, null);
    }
    const holder = actorOf(allocation.consumer);
    switch (allocation.status) {
      case 'allocated':
        return r.chance(0.9) ? this.tokenCommand(node, { type: 'StartDeployment' }, holder) : this.release(node, 'released', holder);
      case 'deploying':
        if (r.chance(0.85)) return this.tokenCommand(node, { type: 'MarkDeployed' }, 'maas');
        return this.observe(node, 'Failed deployment', 'maas');
      case 'deployed': {
        const roll = r.next();
        if (roll < 0.35) return [];
        if (roll < 0.5) return this.container(node, holder);
        if (roll < 0.85) return this.release(node, 'released', holder);
        if (roll < 0.89) return this.release(node, 'force_released', holder);
        if (roll < 0.93) return this.release(node, 'model_released', holder);
        if (roll < 0.97) return this.observe(node, 'Ready', 'operator:charlie');
        return this.observe(node, 'Failed deployment', 'maas');
      }
      case 'failed_deployment': {
        const roll = r.next();
        if (roll < 0.45) return this.observe(node, 'Ready', 'operator:charlie');
        if (roll < 0.8) return this.release(node, 'released', holder);
        return this.tokenCommand(node, { type: 'StartDeployment' }, holder);
      }
    }
  }

  private enlist(node: SimulatedNode): SimulatedAppend[] {
    return this.decide(node, enlistCommand(this.random, node.nodeId), 'operator:charlie');
  }

  private reserve(node: SimulatedNode): SimulatedAppend[] {
    node.reservationKeyHash = this.random.hex(64);
    return this.decide(node, reserveCommand(this.random, node.nodeId, node.reservationKeyHash, this.now), 'agent:picker');
  }

  private acquire(node: SimulatedNode, reservationKeyHash: string | null): SimulatedAppend[] {
    const consumer = this.consumers.next();
    const requestId = `req-${this.now.toString(36)}-${this.random.text(12)}`;
    const fingerprint = this.random.text(43);
    const actor = actorOf(consumer);
    const correlationId = this.random.uuid(this.now);
    const route: SimulatedAppend = {
      stream: Streams.request(requestId),
      events: [
        envelope(this.random, this.now, { type: 'AcquireRouted', data: { requestId, fingerprint, nodeId: node.nodeId } }, actor, correlationId, requestId),
      ],
      expectedRevision: 'no_stream',
      at: new Date(this.now),
    };
    const acquired = this.decide(
      node,
      {
        type: 'AcquireNode',
        nodeId: node.nodeId,
        consumer,
        request: { requestId, fingerprint },
        reservationKeyHash,
        tokenEntropy: this.random.text(22),
        now: this.iso(),
      },
      actor,
      correlationId,
      requestId,
    );
    return [route, ...acquired];
  }

  private release(node: SimulatedNode, ending: 'released' | 'force_released' | 'model_released', actor: string): SimulatedAppend[] {
    return this.tokenCommand(node, { type: 'ReleaseAllocation', ending }, actor);
  }

  private tokenCommand(
    node: SimulatedNode,
    action: { type: 'StartDeployment' | 'MarkDeployed' } | { type: 'ReleaseAllocation'; ending: 'released' | 'force_released' | 'model_released' },
    actor: string,
  ): SimulatedAppend[] {
    const token = node.state.allocation!.token;
    const command: NodeCommand = { ...action, nodeId: node.nodeId, token, now: this.iso(), request: null };
    return this.decide(node, command, actor);
  }

  /** A holder comes back from lunch and releases a token that died meanwhile (seed 1). */
  private staleRelease(node: SimulatedNode): SimulatedAppend[] {
    const token = this.random.pick(node.tokens);
    if (node.state.allocation?.token === token) return [];
    return this.decide(node, { type: 'ReleaseAllocation', nodeId: node.nodeId, token, ending: 'released', now: this.iso(), request: null }, 'anonymous');
  }

  private powerSync(node: SimulatedNode): SimulatedAppend[] {
    return this.decide(node, powerSyncCommand(this.random, node.nodeId, node.state, this.now), 'maas');
  }

  private maintenance(node: SimulatedNode): SimulatedAppend[] {
    const { command, actor } = maintenanceCommand(node.nodeId, node.state, this.now);
    return this.decide(node, command, actor);
  }

  private observe(node: SimulatedNode, providerStatus: string, actor: string): SimulatedAppend[] {
    return this.decide(node, providerStatusCommand(node.nodeId, providerStatus, this.now), actor);
  }

  /** A container on the node (seed 2) and a DHCP lease for it on a free address. */
  private container(node: SimulatedNode, holder: string): SimulatedAppend[] {
    const allocation = node.state.allocation!;
    const hostname = `juju-${this.random.hex(6)}-lxd-${this.random.below(100)}`;
    const mac = `00:16:3e:${this.random.hex(2)}:${this.random.hex(2)}:${this.random.hex(2)}`;
    const registered = this.decide(node, { type: 'RegisterDevice', nodeId: node.nodeId, token: allocation.token, hostname, mac, now: this.iso() }, holder);
    const device = registered[0]?.events.find((event) => event.type === 'DeviceRegistered')?.data as { deviceId: string } | undefined;
    if (!device) return registered;
    const ip = this.addresses.free();
    if (!ip) return registered;
    const owner: LeaseOwner = { kind: 'device', deviceId: device.deviceId, token: allocation.token, nodeId: node.nodeId };
    const granted = this.addresses.lease(
      ip,
      {
        type: 'GrantLease',
        ip,
        mac,
        owner,
        leaseKind: 'dhcp',
        expiresAt: new Date(this.now + 86_400_000).toISOString(),
        liveness: { [ownerKey(owner)]: ownerLivenessIn(node.state, owner) },
        now: this.iso(),
      },
      'maas-dhcp',
      null,
    );
    const leaseId = (granted[0]?.events.find((event) => event.type === 'LeaseGranted')?.data as { leaseId: string } | undefined)?.leaseId;
    if (leaseId) this.addresses.hold(allocation.token, ip, leaseId);
    return [...registered, ...granted];
  }

  /** Runs the real decider; accepted events are appended to the node stream, refusals recorded. */
  private decide(
    node: SimulatedNode,
    command: NodeCommand,
    actor: string,
    correlationId = this.random.uuid(this.now),
    requestId: string | null = null,
  ): SimulatedAppend[] {
    const decision = nodeDecider.decide(command, node.state);
    if (decision.outcome === 'refused') return this.refused(node, command, decision.refusal, actor, correlationId, requestId);
    if (decision.events.length === 0) return [];
    const expectedRevision: ExpectedRevision = node.revision < 0 ? 'no_stream' : node.revision;
    node.state = decision.events.reduce(nodeDecider.evolve, node.state);
    node.revision += decision.events.length;
    for (const event of decision.events) if (event.type === 'NodeAcquired') node.tokens.push(event.data.token);
    const append: SimulatedAppend = {
      stream: Streams.node(node.nodeId),
      events: decision.events.map((event) => envelope(this.random, this.now, event, actor, correlationId, requestId)),
      expectedRevision,
      at: new Date(this.now),
    };
    return [append, ...this.addresses.cascade(append)];
  }

  /** What RefusalRecorder writes for a refused command. */
  private refused(
    node: SimulatedNode,
    command: NodeCommand,
    refusal: Refusal,
    actor: string,
    correlationId: string,
    requestId: string | null,
  ): SimulatedAppend[] {
    const data = refusalRecord(node.nodeId, command, refusal);
    return [
      {
        stream: Streams.refusals(node.nodeId),
        events: [envelope(this.random, this.now, { type: 'CommandRefused', data }, actor, correlationId, requestId)],
        expectedRevision: 'any',
        at: new Date(this.now),
      },
    ];
  }

  private iso(): string {
    return new Date(this.now).toISOString();
  }
}
