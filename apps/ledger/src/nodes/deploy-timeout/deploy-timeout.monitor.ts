import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { overdueDeployments } from '@ledger/projections';
import { NodeCommandService } from '../../application/node-command.service';
import { systemContext } from '../../application/request-context';
import { LedgerViewService } from '../../read-models/ledger-view.service';
import { CLOCK, LEDGER_CONFIG, RANDOMNESS } from '../../infrastructure/injection-tokens';
import type { Clock } from '../../infrastructure/clock';
import type { Randomness } from '../../infrastructure/randomness';
import type { LedgerConfig } from '../../config/ledger-config';
import { StorageHealth } from '../../infrastructure/storage-health.service';

/**
 * The deploy-timeout timer. Every tenth of the deploy timeout (at most 10 s) it takes the
 * deployments the read model thinks overdue and asks each node's stream whether it is
 * (CheckDeployTimeout); the pure decider answers, so a stale view costs a no-op and
 * several ledger instances ticking at once still fault a node once. The timer never
 * keeps the process alive and stops, finishing its pass, before shutdown.
 */
@Injectable()
export class DeployTimeoutMonitor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<void> | null = null;
  private stopping = false;

  constructor(
    private readonly nodes: NodeCommandService,
    private readonly views: LedgerViewService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RANDOMNESS) private readonly random: Randomness,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly logger: PinoLogger,
    private readonly storage: StorageHealth,
  ) {
    this.logger.setContext(DeployTimeoutMonitor.name);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.checkOnce(), this.config.healthCheckIntervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.pass;
  }

  /** One pass over the candidates; a pass still running is joined, not doubled. */
  checkOnce(): Promise<void> {
    this.pass ??= this.checkOverdue().finally(() => (this.pass = null));
    return this.pass;
  }

  private async checkOverdue(): Promise<void> {
    const now = this.clock();
    const timeoutSeconds = this.config.deployTimeoutSeconds;
    for (const nodeId of overdueDeployments(this.views.view, now, timeoutSeconds)) {
      if (this.stopping) return;
      try {
        const outcome = await this.nodes.attempt(
          { type: 'CheckDeployTimeout', nodeId, timeoutSeconds, now: now.toISOString() },
          systemContext('deploy-timeout-monitor', this.random.uuid()),
        );
        if ('accepted' in outcome && outcome.accepted.position !== null) {
          this.logger.warn({ nodeId, token: outcome.accepted.reply.token, timeoutSeconds }, 'deployment timed out: node faulted (deploy_timeout)');
        }
      } catch (error) {
        if (!this.storage.report(error, 'store')) this.logger.error({ err: error, nodeId }, 'deploy-timeout check failed; retried on the next pass');
      }
    }
  }
}
