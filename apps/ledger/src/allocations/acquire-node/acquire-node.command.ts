import { Command } from '@nestjs/cqrs';
import type { NodeReply } from '@ledger/domain';
import type { RequestContext } from '../../application/request-context';
import type { AcquireRequestDto } from './acquire.request.dto';

export class AcquireNode extends Command<NodeReply & { position: number | null }> {
  constructor(readonly body: AcquireRequestDto, readonly context: RequestContext) {
    super();
  }
}
