import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { NodeReply } from '@ledger/domain';
import { AcquireService } from './acquire.service';
import type { RequestContext } from '../../application/request-context';
import type { AcquireRequestDto } from './acquire.request.dto';

export class AcquireNode extends Command<NodeReply & { position: number | null }> {
  constructor(readonly body: AcquireRequestDto, readonly context: RequestContext) {
    super();
  }
}

@CommandHandler(AcquireNode)
export class AcquireNodeHandler implements ICommandHandler<AcquireNode> {
  constructor(private readonly acquisitions: AcquireService) {}

  async execute({ body, context }: AcquireNode) {
    if (body.nodeId !== undefined && body.constraints !== undefined) {
      throw new BadRequestException({ code: 'invalid_request', message: 'give either nodeId or constraints, not both' });
    }
    const { consumer } = body;
    const { reply, position } = await this.acquisitions.acquire(
      {
        requestId: body.requestId,
        consumer: { ...consumer },
        nodeId: body.nodeId,
        constraints: body.constraints ? { ...body.constraints } : undefined,
        reservationKey: body.reservationKey,
      },
      { ...context, requestId: body.requestId },
    );
    return { ...reply, position };
  }
}
