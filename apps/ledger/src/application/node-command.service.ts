import { Inject, Injectable } from '@nestjs/common';
import { nodeDecider, Streams, type Consumer, type NodeCommand, type NodeEvent, type NodeReply, type NodeState, type Refusal } from '@ledger/domain';
import { DeciderRunner, type EventStore } from '@ledger/event-store';
import { EVENT_STORE, RANDOMNESS } from '../infrastructure/injection-tokens';
import type { Randomness } from '../infrastructure/randomness';
import { commandHandlingOptions } from './envelopes';
import { RefusalRecorder, type RefusedCommand } from './refusal-recorder';
import type { RequestContext } from './request-context';

export interface NodeCommandResult {
  reply: NodeReply;
  /** Global position of the last event written, or null when nothing had to change. */
  position: number | null;
  state: NodeState;
}

/** How a refused node command is described in its refusal record. */
export const refusedNodeCommand = (command: Pick<NodeCommand, 'type' | 'nodeId'> & { token?: string; consumer?: Consumer }): RefusedCommand => ({
  command: command.type,
  nodeId: command.nodeId,
  token: command.token ?? null,
  consumer: command.consumer ? { controller: command.consumer.controller, model: command.consumer.model } : null,
});

const isEnlisted = (state: NodeState): boolean => state.profile !== null;

export type NodeCommandOutcome = { accepted: NodeCommandResult } | { refused: Refusal; state: NodeState };

/** Runs node commands on their `node-{id}` stream; a refusal goes down the one refusal path. */
@Injectable()
export class NodeCommandService {
  private readonly handler: DeciderRunner<NodeCommand, NodeEvent, NodeState, NodeReply, Refusal>;

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
    if (handled.outcome === 'refused') return { refused: handled.refusal, state: handled.state };
    return { accepted: { reply: handled.reply, position: handled.position, state: handled.state } };
  }

  /** Decides and appends; a refusal is recorded and thrown (RefusalRecorder.refuse). */
  async execute(command: NodeCommand, context: RequestContext): Promise<NodeCommandResult> {
    const outcome = await this.attempt(command, context);
    if ('accepted' in outcome) return outcome.accepted;
    return this.refusals.refuse(refusedNodeCommand(command), outcome.refused, context);
  }

  /** Whether the node is enlisted, from its stream: an enlistment is never undone, so one the cache has seen is not read again. */
  async isEnlisted(nodeId: string): Promise<boolean> {
    return isEnlisted((await this.handler.load(Streams.node(nodeId), isEnlisted)).state);
  }

  /**
   * The node's current state, from the stream itself (not a projection). With `settled`, a
   * state this process has already folded (its own commands) that it holds for is answered
   * without reading the stream: for a fact no later event undoes.
   */
  async load(nodeId: string, settled?: (state: NodeState) => boolean): Promise<NodeState> {
    return (await this.handler.load(Streams.node(nodeId), settled)).state;
  }
}
