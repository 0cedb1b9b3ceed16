import { Inject } from '@nestjs/common';
import { parseRfc3339Time } from '@ledger/domain';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { NodeReply } from '@ledger/domain';
import { NodeCommandService } from '../../application/node-command.service';
import type { RequestContext } from '../../application/request-context';
import { CLOCK } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';
import { withPosition } from '../../application/with-position';

/** What the command carries: plain values (the HTTP request DTO implements this). */
export interface NodeObservationInput {
  nodeId: string;
  providerStatus: string;
  observedAt: string;
  source: string;
  heldOutOfBand?: boolean;
}

export class ObserveNode extends Command<NodeReply & { position: number | null }> {
  constructor(
    readonly body: NodeObservationInput,
    readonly context: RequestContext,
  ) {
    super();
  }
}

@CommandHandler(ObserveNode)
export class ObserveNodeHandler implements ICommandHandler<ObserveNode> {
  constructor(
    private readonly nodes: NodeCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ body, context }: ObserveNode) {
    const { reply, position } = await this.nodes.execute(
      {
        type: 'ObserveProviderStatus',
        nodeId: body.nodeId,
        providerStatus: body.providerStatus,
        source: body.source,
        observedAt: parseRfc3339Time(body.observedAt)!.toISOString(),
        now: this.clock().toISOString(),
        ...(body.heldOutOfBand === true ? { heldOutOfBand: true } : {}),
      },
      context,
    );
    return withPosition(reply, position);
  }
}
