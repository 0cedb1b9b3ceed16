import type { CliIo } from './cli-command';

const WIDTH = 30;
const number = (value: number) => Math.round(value).toLocaleString('en-US');
const duration = (seconds: number) =>
  !Number.isFinite(seconds)
    ? '?'
    : seconds < 60
      ? `${Math.ceil(seconds)}s`
      : `${Math.floor(seconds / 60)}m${String(Math.ceil(seconds % 60)).padStart(2, '0')}s`;

/**
 * A one-line progress bar on stderr (events/s and ETA), drawn only when stderr is a
 * terminal and at most ten times a second; silent otherwise, so scripts and logs stay clean.
 */
export class ProgressBar {
  private readonly started = performance.now();
  private drawnAt = -Infinity;
  private drawn = false;

  constructor(
    private readonly io: CliIo,
    private readonly label: string,
  ) {}

  /** `done` of `total` units (events, or positions when that is all that is known). */
  update(done: number, total: number, unit = 'events'): void {
    if (!this.io.interactive) return;
    const now = performance.now();
    if (now - this.drawnAt < 100 && done < total) return;
    this.drawnAt = now;
    const fraction = total > 0 ? Math.min(1, done / total) : 1;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 ? (total - done) / rate : Infinity;
    const filled = Math.round(fraction * WIDTH);
    this.io.errRaw?.(
      `\r${this.label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${number(done)}/${number(total)} ${unit}  ${number(rate)} ${unit}/s  ETA ${duration(eta)}   `,
    );
    this.drawn = true;
  }

  /** Ends the bar's line (if one was drawn). */
  done(): void {
    if (this.drawn) this.io.errRaw?.('\n');
  }
}
