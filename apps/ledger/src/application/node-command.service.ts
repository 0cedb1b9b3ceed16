import { Inject, Injectable } from '@nestjs/common';
import { nodeDecider, Streams, type NodeCommand, type NodeEvent, type NodeReply, type NodeState, type Refusal } from '@ledger/domain';
import { DeciderRunner, type EventStore } from '@ledger/event-store';
import { EVENT_STORE, RANDOMNESS } from '../infrastructure/injection-tokens';
import type { Randomness } from '../infrastructure/randomness';
import { commandHandlingOptions } from './envelopes';
import { LedgerRefusal } from './ledger-refusal';
import { RefusalRecorder } from './refusal-recorder';
import type { RequestContext } from './request-context';

export interface NodeCommandResult {
  reply: NodeReply;
  /** Global position of the last event written, or null when nothing had to change. */
  position: number | null;
  state: NodeState;
}

export type NodeCommandOutcome = { accepted: NodeCommandResult } | { refused: Refusal; state: NodeState };

/** Runs node commands on their `node-{id}` stream; a refusal is recorded, then reported. */
@Injectable()
export class NodeCommandService {
  private readonly handler: DeciderRunner<NodeCommand, NodeEvent, NodeState, NodeReply>;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(RANDOMNESS) private readonly random: Randomness,
    private readonly refusals: RefusalRecorder,
  ) {
    this.handler = new DeciderRunner(store, nodeDecider);
  }

  /** Decides and appends; refusals come back as values (and are not yet recorded). */
  async attempt(command: NodeCommand, context: RequestContext): Promise<NodeCommandOutcome> {
    const handled = await this.handler.handle(Streams.node(command.nodeId), command, commandHandlingOptions(context, this.random));
    if (handled.outcome === 'refused') return { refused: handled.refusal as Refusal, state: handled.state };
    return { accepted: { reply: handled.reply, position: handled.position, state: handled.state } };
  }

  /** Decides and appends; a refusal is recorded in the log and thrown as a LedgerRefusal. */
  async execute(command: NodeCommand, context: RequestContext): Promise<NodeCommandResult> {
    const outcome = await this.attempt(command, context);
    if ('accepted' in outcome) return outcome.accepted;
    await this.recordRefusal(command, outcome.refused, outcome.state, context);
    throw new LedgerRefusal(outcome.refused);
  }

  async recordRefusal(command: NodeCommand, refusal: Refusal, state: NodeState, context: RequestContext): Promise<void> {
    // A 404 is bad input, not a decision: unknown nodes and tokens are never written,
    // so arbitrary ids from the network cannot create streams or grow the log.
    if (state.profile === null || refusal.code === 'not_found') return;
    await this.refusals.record(
      {
        command: command.type,
        nodeId: command.nodeId,
        token: 'token' in command ? command.token : null,
        consumer: 'consumer' in command ? { controller: command.consumer.controller, model: command.consumer.model } : null,
      },
      refusal,
      context,
    );
  }

  /** The node's current state, from the stream itself (not a projection). */
  async load(nodeId: string): Promise<NodeState> {
    return (await this.handler.load(Streams.node(nodeId))).state;
  }
}
