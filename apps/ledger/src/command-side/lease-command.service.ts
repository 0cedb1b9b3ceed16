import { Inject, Injectable } from '@nestjs/common';
import {
  leaseDecider, ownerKey, Streams,
  type LeaseCommand, type LeaseEvent, type LeaseOwner, type LeaseReply, type LeaseState, type OwnerLiveness, type OwnerLivenessReport, type Refusal,
} from '@ledger/domain';
import { CommandHandler, type EventStore } from '@ledger/event-store';
import { EVENT_STORE, RANDOMNESS } from '../infrastructure/injection-tokens';
import type { Randomness } from '../infrastructure/randomness';
import { commandHandlingOptions } from './envelopes';
import { LedgerRefusal } from './ledger-refusal';
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
  private readonly handler: CommandHandler<LeaseCommand, LeaseEvent, LeaseState, LeaseReply>;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(RANDOMNESS) private readonly random: Randomness,
    private readonly owners: LeaseOwnersService,
    private readonly refusals: RefusalRecorder,
  ) {
    this.handler = new CommandHandler(store, leaseDecider);
  }

  /** Decides and appends; a refusal is recorded in the log (unless it is a 404) and thrown. */
  async execute(
    ip: string,
    build: (liveness: OwnerLivenessReport) => LeaseCommand,
    context: RequestContext,
    options: { also?: LeaseOwner[]; causationId?: string | null; cache?: LivenessCache } = {},
  ): Promise<LeaseCommandResult> {
    const stream = Streams.ip(ip);
    const cache: LivenessCache = options.cache ?? new Map();
    const wanted = [...(options.also ?? [])];
    for (let round = 0; round < MAX_LIVENESS_ROUNDS; round++) {
      const { state } = await this.handler.load(stream);
      if (state.active) wanted.push(state.active.owner);
      const command = build(await this.livenessOf(wanted, cache));
      const handled = await this.handler.handle(stream, command, commandHandlingOptions(context, this.random, options.causationId ?? null));
      if (handled.outcome === 'accepted') return { reply: handled.reply, position: handled.position, state: handled.state };
      const refusal = handled.refusal as Refusal;
      if (typeof refusal.details?.missingLiveness === 'string') {
        cache.clear();
        continue;
      }
      await this.record(command, refusal, context);
      throw new LedgerRefusal(refusal);
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

  private async record(command: LeaseCommand, refusal: Refusal, context: RequestContext): Promise<void> {
    // Bad input is not a decision: it is answered, never written.
    if (refusal.code === 'not_found' || refusal.code === 'invalid_request') return;
    const token = command.type === 'GrantLease' ? command.owner.token : null;
    await this.refusals.record({ command: command.type, nodeId: null, token, ip: command.ip }, refusal, context);
  }
}
