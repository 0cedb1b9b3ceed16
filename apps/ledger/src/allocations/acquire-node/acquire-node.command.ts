import { Command } from '@nestjs/cqrs';
import type { NodeReply } from '@ledger/domain';
import type { RequestContext } from '../../application/request-context';

/** What the command carries: plain values (the HTTP request DTO implements this). */
export interface AcquireNodeInput {
  requestId: string;
  consumer: { controller: string; model: string; machine?: string; agentName?: string; owner?: string };
  nodeId?: string;
  constraints?: { arch?: string; minCpu?: number; minMemoryMb?: number; tags?: string[]; notTags?: string[]; zone?: string; pool?: string };
  excludeNodeIds?: string[];
  reservationKey?: string;
}

export class AcquireNode extends Command<NodeReply & { position: number | null }> {
  constructor(
    readonly body: AcquireNodeInput,
    readonly context: RequestContext,
  ) {
    super();
  }
}
