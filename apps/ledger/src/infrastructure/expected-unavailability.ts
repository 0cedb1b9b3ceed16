import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';

/**
 * The 503s a healthy ledger gives on purpose: not ready yet (catching up after a start),
 * and a read whose wait for the read models ran out (LEDGER_READ_WAIT_MS). A full disk has
 * its own once-said condition (StorageHealth).
 */
export type ExpectedUnavailability = 'not_ready' | 'not_caught_up';

interface Ongoing {
  since: number;
  answers: number;
}

/** How each condition is said: an orchestrator probing a ledger that catches up is no fault, a read wait that ran out deserves a look. */
const LEVEL: Record<ExpectedUnavailability, 'info' | 'warn'> = { not_ready: 'info', not_caught_up: 'warn' };

/**
 * Says each expected 503 once, when its condition starts and when it ends, with how many
 * answers it covered: not a line (let alone a stack trace) per probe or per request, which
 * during a long catch-up buried what an operator must act on. `error` stays for that.
 */
@Injectable()
export class ExpectedUnavailabilityLog {
  private readonly ongoing = new Map<ExpectedUnavailability, Ongoing>();

  constructor(private readonly logger: PinoLogger) {
    this.logger.setContext(ExpectedUnavailabilityLog.name);
  }

  /** A 503 for `condition` was answered: said if the condition starts with it. */
  answered(condition: ExpectedUnavailability, fields: Record<string, unknown>, message: string): void {
    const ongoing = this.ongoing.get(condition);
    if (ongoing) {
      ongoing.answers += 1;
      return;
    }
    this.ongoing.set(condition, { since: performance.now(), answers: 1 });
    this.logger[LEVEL[condition]]({ ...fields, condition }, `${message} (said once until it ends)`);
  }

  /** The condition is over (a readiness probe passed, a wait was met): said if it was on. Free when it was not. */
  ended(condition: ExpectedUnavailability, message: string): void {
    if (this.ongoing.size === 0) return;
    const ongoing = this.ongoing.get(condition);
    if (!ongoing) return;
    this.ongoing.delete(condition);
    this.logger.info({ condition, answers: ongoing.answers, seconds: Math.round(performance.now() - ongoing.since) / 1000 }, message);
  }
}
