import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { liveAllocationsOfModel } from '@ledger/projections';
import type { EventStore } from '@ledger/event-store';
import { NodeCommandService } from '../../application/node-command.service';
import { LedgerRefusal } from '../../application/ledger-refusal';
import type { RequestContext } from '../../application/request-context';
import { fingerprintOf } from '../../application/fingerprint';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { CLOCK, EVENT_STORE } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';

/** What the command carries: plain values (the HTTP request DTO implements this). */
export interface ModelReleaseInput {
  controller: string;
  model: string;
  force?: boolean;
  requestId?: string;
}

export interface ModelReleased {
  controller: string;
  model: string;
  /** `pendingCleanup`: provider work that waits for a faulted node to recover (seed 4). */
  released: { token: string; nodeId: string; pendingCleanup?: string[] }[];
  /** Allocations that ended by other means while this ran: nothing to do for them. */
  alreadyEnded: { token: string; nodeId: string; code: string }[];
  position: number | null;
}

export class ReleaseModel extends Command<ModelReleased> {
  constructor(
    readonly body: ModelReleaseInput,
    readonly context: RequestContext,
  ) {
    super();
  }
}

/**
 * Environment destroy (seed 2): ends every live allocation of a model. Each release is
 * fenced on its own token, so one that ended concurrently is reported, not re-ended.
 */
@CommandHandler(ReleaseModel)
export class ReleaseModelHandler implements ICommandHandler<ReleaseModel> {
  constructor(
    private readonly nodes: NodeCommandService,
    private readonly views: LedgerViewService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ body, context }: ReleaseModel): Promise<ModelReleased> {
    // Every allocation acquired before this request must be seen, so wait for the head.
    const view = await this.views.atLeast(await this.store.headPosition());
    const result: ModelReleased = { controller: body.controller, model: body.model, released: [], alreadyEnded: [], position: null };
    for (const allocation of liveAllocationsOfModel(view, body.controller, body.model)) {
      const { token, nodeId } = allocation;
      const request = body.requestId ? { requestId: `${body.requestId}:${token}`, fingerprint: fingerprintOf({ token, model: body.model }) } : null;
      try {
        const { position, reply } = await this.nodes.execute(
          { type: 'ReleaseAllocation', nodeId, token, ending: 'model_released', now: this.clock().toISOString(), request },
          { ...context, requestId: body.requestId ?? null },
        );
        result.released.push({ token, nodeId, ...(reply.pendingCleanup ? { pendingCleanup: reply.pendingCleanup } : {}) });
        result.position = position ?? result.position;
      } catch (error) {
        if (!(error instanceof LedgerRefusal)) throw error;
        result.alreadyEnded.push({ token, nodeId, code: error.refusal.code });
      }
    }
    return result;
  }
}
