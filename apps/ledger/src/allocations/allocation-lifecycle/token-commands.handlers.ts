import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { NodeCommand, NodeReply } from '@ledger/domain';
import { NodeCommandService } from '../../application/node-command.service';
import type { RequestContext } from '../../application/request-context';
import { fingerprintOf } from '../../application/fingerprint';
import { CLOCK } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';

export type TokenAction =
  | { type: 'StartDeployment' }
  | { type: 'MarkDeployed' }
  | { type: 'MarkDeploymentFailed'; reason: string; source: string }
  | { type: 'ReleaseAllocation'; ending: 'released' | 'force_released' | 'model_released' };

/** Any command that names an allocation by its token: fenced on the token's node stream. */
export class RunTokenCommand extends Command<NodeReply & { position: number | null }> {
  constructor(
    readonly token: string,
    readonly nodeId: string,
    readonly action: TokenAction,
    readonly requestId: string | null,
    readonly context: RequestContext,
  ) {
    super();
  }
}

@CommandHandler(RunTokenCommand)
export class RunTokenCommandHandler implements ICommandHandler<RunTokenCommand> {
  constructor(
    private readonly nodes: NodeCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ token, nodeId, action, requestId, context }: RunTokenCommand) {
    const request = requestId ? { requestId, fingerprint: fingerprintOf({ token, action }) } : null;
    const command: NodeCommand = { ...action, nodeId, token, now: this.clock().toISOString(), request };
    const { reply, position } = await this.nodes.execute(command, { ...context, requestId });
    return { ...reply, position };
  }
}
