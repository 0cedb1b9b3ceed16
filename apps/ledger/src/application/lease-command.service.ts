import { Inject, Injectable } from '@nestjs/common';
import {
  leaseDecider,
  ownerKey,
  Streams,
  type LeaseCommand,
  type LeaseEvent,
  type LeaseOwner,
  type LeaseReply,
  type LeaseState,
  type OwnerLiveness,
  type OwnerLivenessReport,
  type Refusal,
} from '@ledger/domain';
import { DeciderRunner, type EventStore } from '@ledger/event-store';
import { EVENT_STORE, RANDOMNESS } from '../infrastructure/injection-tokens';
import type { Randomness } from '../infrastructure/randomness';
import { commandHandlingOptions } from './envelopes';
import { RefusalRecorder } from './refusal-recorder';
import { LeaseOwnersService } from './lease-owners.service';
import type { RequestContext } from './request-context';

export interface LeaseCommandResult {
  reply: LeaseReply;
  position: number | null;
  state: LeaseState;
}

/** Liveness lookups shared by the commands of one request, so a batch reads each node stream once. */
export type LivenessCache = Map<string, Promise<OwnerLiveness>>;

const MAX_LIVENESS_ROUNDS = 10;

/**
 * Runs lease commands on their `ip-{ip}` stream. Owner liveness is read from the node
 * streams of the new owner and of the address's active lease, then handed to the
 * decider in the command; if the address changed hands in between, the decider asks
 * for the new holder's liveness and the command is built again.
 */
@Injectable()
export class LeaseCommandService {
  private readonly handler: DeciderRunner<LeaseCommand, LeaseEvent, LeaseState, LeaseReply, Refusal>;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(RANDOMNESS) private readonly random: Randomness,
    private readonly owners: LeaseOwnersService,
    private readonly refusals: RefusalRecorder,
  ) {
    this.handler = new DeciderRunner(store, leaseDecider);
  }

  /** Decides and appends; a refusal is recorded and thrown (RefusalRecorder.refuse). */
  async execute(
    ip: string,
    build: (liveness: OwnerLivenessReport) => LeaseCommand,
    context: RequestContext,
    options: { also?: LeaseOwner[]; alsoOf?: (state: LeaseState) => LeaseOwner[]; causationId?: string | null; cache?: LivenessCache } = {},
  ): Promise<LeaseCommandResult> {
    const stream = Streams.ip(ip);
    const cache: LivenessCache = options.cache ?? new Map();
    const wanted = [...(options.also ?? [])];
    for (let round = 0; round < MAX_LIVENESS_ROUNDS; round++) {
      const { state } = await this.handler.load(stream);
      if (state.active) wanted.push(state.active.owner);
      if (options.alsoOf) wanted.push(...options.alsoOf(state));
      const command = build(await this.livenessOf(wanted, cache));
      const handled = await this.handler.handle(stream, command, commandHandlingOptions(context, this.random, options.causationId ?? null));
      if (handled.outcome === 'accepted') return { reply: handled.reply, position: handled.position, state: handled.state };
      const refusal = handled.refusal;
      if (typeof refusal.details?.missingLiveness === 'string') {
        cache.clear();
        continue;
      }
      const token = command.type === 'GrantLease' ? command.owner.token : null;
      return this.refusals.refuse({ command: command.type, nodeId: null, token, ip: command.ip }, refusal, context);
    }
    throw new Error(`${stream}: the active lease kept changing hands; gave up after ${MAX_LIVENESS_ROUNDS} rounds`);
  }

  /** The address's current state, from its stream. */
  async load(ip: string): Promise<LeaseState> {
    return (await this.handler.load(Streams.ip(ip))).state;
  }

  async livenessOf(owners: LeaseOwner[], cache: LivenessCache = new Map()): Promise<OwnerLivenessReport> {
    const report: OwnerLivenessReport = {};
    for (const owner of owners) {
      const key = ownerKey(owner);
      if (!cache.has(key)) cache.set(key, this.owners.liveness(owner));
      report[key] = await cache.get(key)!;
    }
    return report;
  }
}
