/**
 * One line on a terminal, redrawn in place: how far, how fast, how long still. Drawn at
 * most every `intervalMs` so a fast loop does not spend its time printing.
 */
export interface ProgressBarOptions {
  label: string;
  /** What `done` counts toward: bytes of the file, records to post. */
  total: number;
  unit: 'bytes' | 'records';
  write: (text: string) => void;
  now?: () => number;
  width?: number;
  intervalMs?: number;
}

const formatCount = (n: number) => Math.round(n).toLocaleString('en-US');
const formatBytes = (n: number) => (n >= 1_048_576 ? `${(n / 1_048_576).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(0)} kB` : `${n} B`);
export const formatDuration = (seconds: number): string => {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes}m${String(Math.ceil(seconds % 60)).padStart(2, '0')}s`
    : `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
};

export class ProgressBar {
  private readonly now: () => number;
  private readonly started: number;
  private lastDraw = -Infinity;
  private drawn = false;

  constructor(private readonly options: ProgressBarOptions) {
    this.now = options.now ?? (() => performance.now());
    this.started = this.now();
  }

  /** `done` of `total`, and the records handled so far (for the rate). */
  update(done: number, records: number, force = false): void {
    const now = this.now();
    if (!force && now - this.lastDraw < (this.options.intervalMs ?? 100)) return;
    this.lastDraw = now;
    this.drawn = true;
    this.options.write(`\r\x1b[K${this.line(done, records, now)}`);
  }

  /** Removes the line, so the report that follows starts on a clean one. */
  clear(): void {
    if (this.drawn) this.options.write('\r\x1b[K');
    this.drawn = false;
  }

  line(done: number, records: number, now = this.now()): string {
    const { label, total, unit } = this.options;
    const width = this.options.width ?? 24;
    const fraction = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(fraction * width);
    const elapsed = Math.max(0.001, (now - this.started) / 1000);
    const rate = records / elapsed;
    const eta = fraction > 0 ? (elapsed / fraction) * (1 - fraction) : Infinity;
    const amount = unit === 'bytes' ? `${formatBytes(done)}/${formatBytes(total)}` : `${formatCount(done)}/${formatCount(total)}`;
    return `${label.padEnd(8)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ${amount}  ${formatCount(rate)} records/s  ETA ${formatDuration(eta)}`;
  }
}
