import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger (`request.log`) that becomes a pino child of the ledger's logger, bound
 * to the request's correlation id, only when something logs through it. Fastify makes one
 * for every request, and making a pino child serializes its bindings: about 4 µs of the main
 * thread per request at 64 clients (issue 16), for a logger most requests never use (their
 * one line is written with the correlation id by http-logging.ts). Lines written through it
 * are the child's, unchanged.
 */
export class LazyRequestLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The pino child, made on first use. */
  get logger(): Logger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  /** Whether the child has been made (a test's window on the saving). */
  get isMade(): boolean {
    return this.made !== undefined;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.made?.isLevelEnabled(level) ?? (this.options.level === undefined ? this.parent.isLevelEnabled(level) : this.logger.isLevelEnabled(level));
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.logger.child(bindings, options);
  }

  private write(method: LogMethod, args: unknown[]): void {
    // A level that is off writes nothing, so it need not make the child either.
    if (this.made === undefined && this.options.level === undefined && !this.parent.isLevelEnabled(method)) return;
    (this.logger[method] as (...line: unknown[]) => void)(...args);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger made lazily (see LazyRequestLogger). */
export const lazyRequestLoggers = (logger: Logger, bindings: Bindings, options: ChildLoggerOptions): LazyRequestLogger =>
  new LazyRequestLogger(logger, bindings, options);
