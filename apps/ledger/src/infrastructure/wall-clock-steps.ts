import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { Counter } from 'prom-client';
import { WallClockStepDetector, WALL_CLOCK_STEP_THRESHOLD_MS } from './wall-clock-step-detector';

/** How often the wall clock is compared with the monotonic one. */
const LOOK_EVERY_MS = 1_000;

/**
 * Watches the wall clock for steps and says each one once: a warning line with its size and
 * a count (ledger_wall_clock_steps_total). Nothing in the ledger measures time on the wall
 * clock, so a step changes no rate, timeout or backoff; it changes what is decided by date.
 * Backwards, new events keep the time of the newest one recorded until the wall clock
 * passes it (recordedAt never falls); forwards, reservations, leases and deployments
 * the new time says are past are expired as at that time.
 */
@Injectable()
export class WallClockSteps implements OnApplicationBootstrap, BeforeApplicationShutdown {
  /** Registered on /metrics by LedgerMetrics. */
  readonly counter = new Counter({
    name: 'ledger_wall_clock_steps_total',
    help: `Steps of the wall clock against the monotonic clock (${WALL_CLOCK_STEP_THRESHOLD_MS} ms or more), by direction (backward, forward).`,
    labelNames: ['direction'],
    registers: [],
  });
  private detector: WallClockStepDetector | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly logger: PinoLogger) {
    this.logger.setContext(WallClockSteps.name);
    // Both series exist from the start, at 0, so a rate or an alert needs no absent() guard.
    this.counter.inc({ direction: 'backward' }, 0);
    this.counter.inc({ direction: 'forward' }, 0);
  }

  onApplicationBootstrap(): void {
    this.detector = new WallClockStepDetector();
    this.timer = setInterval(() => this.look(), LOOK_EVERY_MS);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private look(): void {
    const step = this.detector?.look();
    if (!step) return;
    const direction = step.ms < 0 ? 'backward' : 'forward';
    this.counter.inc({ direction });
    this.logger.warn(
      { direction, stepMs: step.ms, from: step.from, to: step.to },
      direction === 'backward'
        ? 'the wall clock stepped back %d s: new events keep the newest recorded time until the clock passes it again'
        : 'the wall clock stepped forward %d s: what the new time says has expired (reservations, leases, deployments) is expired',
      Math.abs(step.ms) / 1000,
    );
  }
}
