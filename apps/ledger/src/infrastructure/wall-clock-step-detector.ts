/** A step of the wall clock: its size in ms (negative: backwards), and the wall clock before and after it. */
export interface WallClockStep {
  ms: number;
  from: string;
  to: string;
}

/** Below this the wall clock is taken to have run with the monotonic one: NTP slews at 0.5 ms/s at most, and Date.now() has 1 ms steps. */
export const WALL_CLOCK_STEP_THRESHOLD_MS = 1_000;

/**
 * Notices the wall clock stepping (an NTP step, a VM restored from a snapshot, an operator's
 * `date -s`): between two looks, the wall clock moved by a different amount than the
 * monotonic clock, which nothing steps. The offset between the two is compared with the
 * previous look's, not the first one's, so a slow slew never adds up to a step, and each
 * step is told once.
 */
export class WallClockStepDetector {
  private offset: number;
  private lastWall: number;

  constructor(
    private readonly wall: () => number = Date.now,
    private readonly monotonic: () => number = () => performance.now(),
    private readonly thresholdMs = WALL_CLOCK_STEP_THRESHOLD_MS,
  ) {
    this.lastWall = this.wall();
    this.offset = this.lastWall - this.monotonic();
  }

  /** The step since the last look, or null if the wall clock kept pace. */
  look(): WallClockStep | null {
    const wall = this.wall();
    const offset = wall - this.monotonic();
    const ms = offset - this.offset;
    const before = this.lastWall;
    this.offset = offset;
    this.lastWall = wall;
    if (Math.abs(ms) < this.thresholdMs) return null;
    return { ms: Math.round(ms), from: new Date(before).toISOString(), to: new Date(wall).toISOString() };
  }
}
