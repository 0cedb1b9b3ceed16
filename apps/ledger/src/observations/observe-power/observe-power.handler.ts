import { Inject } from '@nestjs/common';
import { parseRfc3339Time } from '@ledger/domain';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { activeFaults, type FaultName } from '@ledger/domain';
import { NodeCommandService } from '../../application/node-command.service';
import type { RequestContext } from '../../application/request-context';
import { CLOCK, LEDGER_CONFIG } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';
import type { LedgerConfig } from '../../config/ledger-config';
import { InvalidInput } from '../../application/invalid-input';

/** What the command carries: plain values (the HTTP request DTO implements this). */
export interface PowerObservationInput {
  nodeId: string;
  ok: boolean;
  error?: string;
  observedAt: string;
}

const MAX_CLOCK_SKEW_MS = 5 * 60_000;

export interface PowerObserved {
  nodeId: string;
  /** ok, failing, faulted, recovered, or ignored (not newer than the last recorded observation). */
  status: string;
  consecutiveFailures: number;
  faults: FaultName[];
  position: number | null;
}

export class ObservePower extends Command<PowerObserved> {
  constructor(
    readonly body: PowerObservationInput,
    readonly context: RequestContext,
  ) {
    super();
  }
}

@CommandHandler(ObservePower)
export class ObservePowerHandler implements ICommandHandler<ObservePower> {
  constructor(
    private readonly nodes: NodeCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  async execute({ body, context }: ObservePower): Promise<PowerObserved> {
    const now = this.clock();
    // Observations are ordered by observedAt, so one from the future would silence every real one until then.
    if (parseRfc3339Time(body.observedAt)!.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS) {
      throw new InvalidInput(`observedAt: must not be more than ${MAX_CLOCK_SKEW_MS / 1000} s in the future`);
    }
    const { reply, position, state } = await this.nodes.execute(
      {
        type: 'ObservePowerSync',
        nodeId: body.nodeId,
        ok: body.ok,
        error: body.ok ? null : (body.error ?? null),
        observedAt: parseRfc3339Time(body.observedAt)!.toISOString(),
        failuresForFault: this.config.powerFailuresForFault,
        now: now.toISOString(),
      },
      context,
    );
    return {
      nodeId: reply.nodeId,
      status: reply.status ?? 'ok',
      consecutiveFailures: state.health.power.consecutiveFailures,
      faults: activeFaults(state.health),
      position,
    };
  }
}
