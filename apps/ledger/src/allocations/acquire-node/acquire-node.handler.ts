import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AcquireService } from './acquire.service';
import { AcquireNode } from './acquire-node.command';
import { InvalidInput } from '../../application/invalid-input';
import { withPosition } from '../../application/with-position';

@CommandHandler(AcquireNode)
export class AcquireNodeHandler implements ICommandHandler<AcquireNode> {
  constructor(private readonly acquisitions: AcquireService) {}

  async execute({ body, context }: AcquireNode) {
    if (body.nodeId !== undefined && body.constraints !== undefined) {
      throw new InvalidInput('give either nodeId or constraints, not both');
    }
    if (body.nodeId !== undefined && body.excludeNodeIds !== undefined) {
      throw new InvalidInput('excludeNodeIds goes with constraints, not with nodeId');
    }
    const { consumer } = body;
    const { reply, position } = await this.acquisitions.acquire(
      {
        requestId: body.requestId,
        consumer: { ...consumer },
        nodeId: body.nodeId,
        constraints: body.constraints ? { ...body.constraints } : undefined,
        reservationKey: body.reservationKey,
        ...(body.excludeNodeIds?.length ? { excludeNodeIds: [...body.excludeNodeIds] } : {}),
      },
      { ...context, requestId: body.requestId },
    );
    return withPosition(reply, position);
  }
}
