import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { normaliseMac } from '@ledger/domain';
import { LeaseCommandService } from '../../application/lease-command.service';
import type { RequestContext } from '../../application/request-context';
import { CLOCK } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';
import { withPosition } from '../../application/with-position';
import type { LeaseAnswer } from '../leases/lease-commands.handlers';

/** What the command carries: plain values (the HTTP request DTO implements this). */
export interface DhcpReclaimInput {
  source: string;
  leaseId: string;
  mac: string;
}

export class RecordDhcpReclaim extends Command<LeaseAnswer> {
  constructor(
    readonly ip: string,
    readonly body: DhcpReclaimInput,
    readonly context: RequestContext,
  ) {
    super();
  }
}

/**
 * A DHCP agent deleted, at its server, the binding of an ended lease (a reclaim, seed 2):
 * recorded on the address's stream with the agent as actor, once. Why the binding was an
 * orphan comes from the ledger itself: how the lease ended and, when its owner ended, how
 * the owner did (read from the owner's node stream, like every liveness).
 */
@CommandHandler(RecordDhcpReclaim)
export class RecordDhcpReclaimHandler implements ICommandHandler<RecordDhcpReclaim> {
  constructor(
    private readonly leases: LeaseCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ ip, body, context }: RecordDhcpReclaim): Promise<LeaseAnswer> {
    const now = this.clock().toISOString();
    const mac = normaliseMac(body.mac)!;
    const { reply, position } = await this.leases.execute(
      ip,
      (liveness) => ({ type: 'RecordDhcpReclaim', ip, leaseId: body.leaseId, mac, source: body.source, liveness, now }),
      context,
      { alsoOf: (state) => (state.lastEnded ? [state.lastEnded.owner] : []) },
    );
    return withPosition(reply, position);
  }
}
