import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NodeCommandService } from '../../application/node-command.service';
import type { RequestContext } from '../../application/request-context';
import { hashSecret } from '../../application/fingerprint';
import { CLOCK, LEDGER_CONFIG, RANDOMNESS } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';
import type { Randomness } from '../../infrastructure/randomness';
import type { LedgerConfig } from '../../config/ledger-config';

/** What the command carries: plain values (the HTTP request DTO implements this). */
export interface ReserveNodeInput {
  agentName: string;
  owner?: string;
  ttlSeconds?: number;
}

export interface ReservationGranted {
  nodeId: string;
  reservationId: string;
  /** The secret: shown once, stored only as a hash. */
  reservationKey: string;
  expiresAt: string;
  position: number | null;
}

export class ReserveNode extends Command<ReservationGranted> {
  constructor(
    readonly nodeId: string,
    readonly body: ReserveNodeInput,
    readonly context: RequestContext,
  ) {
    super();
  }
}

@CommandHandler(ReserveNode)
export class ReserveNodeHandler implements ICommandHandler<ReserveNode> {
  constructor(
    private readonly nodes: NodeCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RANDOMNESS) private readonly random: Randomness,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  async execute({ nodeId, body, context }: ReserveNode): Promise<ReservationGranted> {
    // A longer hold than the site allows is cut to its maximum, not refused: the document
    // takes any TTL up to a year (the largest maximum a site may set), and expiresAt tells.
    const ttl = Math.min(body.ttlSeconds ?? this.config.reservationTtlDefaultSeconds, this.config.reservationTtlMaxSeconds);
    const now = this.clock();
    const reservationKey = this.random.secretKey();
    const expiresAt = new Date(now.getTime() + ttl * 1000).toISOString();
    const { reply, position } = await this.nodes.execute(
      {
        type: 'ReserveNode',
        nodeId,
        reservationId: this.random.uuid(),
        agentName: body.agentName,
        owner: body.owner ?? null,
        keyHash: hashSecret(reservationKey),
        expiresAt,
        now: now.toISOString(),
      },
      context,
    );
    return { nodeId, reservationId: reply.reservationId!, reservationKey, expiresAt, position };
  }
}

export class CancelReservation extends Command<{ nodeId: string; reservationId: string; position: number | null }> {
  constructor(
    readonly nodeId: string,
    readonly reservationId: string,
    readonly reservationKey: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}

@CommandHandler(CancelReservation)
export class CancelReservationHandler implements ICommandHandler<CancelReservation> {
  constructor(
    private readonly nodes: NodeCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ nodeId, reservationId, reservationKey, context }: CancelReservation) {
    const { position } = await this.nodes.execute(
      { type: 'CancelReservation', nodeId, reservationId, keyHash: hashSecret(reservationKey), now: this.clock().toISOString() },
      context,
    );
    return { nodeId, reservationId, position };
  }
}
