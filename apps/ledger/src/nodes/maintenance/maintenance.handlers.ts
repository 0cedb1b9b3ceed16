import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { Maintenance } from '@ledger/domain';
import { NodeCommandService } from '../../application/node-command.service';
import type { RequestContext } from '../../application/request-context';
import { CLOCK } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';

export interface MaintenanceAnswer {
  nodeId: string;
  /** The node's maintenance after the command: who put it there, why and since when; null when none. */
  maintenance: Maintenance | null;
  position: number | null;
}

/**
 * Operator maintenance on or off. The operator is the request's actor, recorded as `by`;
 * only this HTTP path ever issues these commands (seed 4: nothing automatic does).
 */
export class SetMaintenance extends Command<MaintenanceAnswer> {
  constructor(
    readonly nodeId: string,
    readonly on: boolean,
    readonly reason: string | null,
    readonly context: RequestContext,
  ) {
    super();
  }
}

@CommandHandler(SetMaintenance)
export class SetMaintenanceHandler implements ICommandHandler<SetMaintenance> {
  constructor(
    private readonly nodes: NodeCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ nodeId, on, reason, context }: SetMaintenance): Promise<MaintenanceAnswer> {
    const now = this.clock().toISOString();
    const by = context.actor;
    const { state, position } = await this.nodes.execute(
      on ? { type: 'StartMaintenance', nodeId, reason: reason ?? '', by, now } : { type: 'EndMaintenance', nodeId, reason, by, now },
      context,
    );
    return { nodeId, maintenance: state.health.maintenance, position };
  }
}
