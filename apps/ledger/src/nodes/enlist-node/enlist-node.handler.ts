import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NodeCommandService } from '../../application/node-command.service';
import type { RequestContext } from '../../application/request-context';

/** What the command carries: plain values (the HTTP request DTO implements this). */
export interface EnlistNodeInput {
  nodeId: string;
  hostname: string;
  arch?: string;
  cpuCount?: number;
  memoryMb?: number;
  tags?: string[];
  zone?: string;
  pool?: string;
}

export class EnlistNode extends Command<{ nodeId: string; position: number | null }> {
  constructor(
    readonly body: EnlistNodeInput,
    readonly context: RequestContext,
  ) {
    super();
  }
}

@CommandHandler(EnlistNode)
export class EnlistNodeHandler implements ICommandHandler<EnlistNode> {
  constructor(private readonly nodes: NodeCommandService) {}

  async execute({ body, context }: EnlistNode) {
    const { reply, position } = await this.nodes.execute(
      {
        type: 'EnlistNode',
        nodeId: body.nodeId,
        profile: {
          hostname: body.hostname,
          arch: body.arch ?? 'amd64',
          cpuCount: body.cpuCount ?? 0,
          memoryMb: body.memoryMb ?? 0,
          tags: [...new Set(body.tags ?? [])].sort(),
          zone: body.zone ?? 'default',
          // No default: a provider without pools (or one that did not say) enlists a node in none.
          ...(body.pool !== undefined ? { pool: body.pool } : {}),
        },
      },
      context,
    );
    return { nodeId: reply.nodeId, position };
  }
}
