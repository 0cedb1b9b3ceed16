import { closeSync, fsyncSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { diagnoseStorageFault, StorageFaultError, type StorageFaultCode } from '@ledger/event-store';
import { LEDGER_CONFIG } from '../infrastructure/injection-tokens';
import type { LedgerConfig } from '../config/ledger-config';

/** Who met the fault: the event store (commands) or the read models (projections, cascade). */
export type StorageComponent = 'store' | 'read-models';

export interface StorageCondition {
  code: StorageFaultCode;
  component: StorageComponent;
  message: string;
  since: Date;
  /** performance.now() when it began: its length is measured on the monotonic clock. */
  began: number;
  refusedWrites: number;
}

/**
 * Whether this ledger can write, as its writes find out: a full or read-only disk, or a
 * store file removed or replaced under it. The condition starts at the first write the
 * disk refuses (one warn line, not a stack trace per request) and ends when a probe file
 * can be written and synced in the data and read-model directories again (one info line):
 * no restart. Until then every refused write is counted, and commands keep being tried.
 * A replaced store file is never probed away: only a restart onto the right file ends it.
 */
@Injectable()
export class StorageHealth implements OnApplicationShutdown {
  private condition: StorageCondition | null = null;
  private probe: NodeJS.Timeout | null = null;
  private readonly refusedByCode = new Map<StorageFaultCode, number>();

  constructor(
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(StorageHealth.name);
  }

  /** The condition now, or null when writes go through. */
  get current(): StorageCondition | null {
    return this.condition ? { ...this.condition } : null;
  }

  /** Writes refused so far because of each storage condition (a metric). */
  refusedWrites(): ReadonlyMap<StorageFaultCode, number> {
    return this.refusedByCode;
  }

  /**
   * Records `error` if it is a storage fault and returns it as one (null for anything
   * else, which the caller handles as before). A request's write names its correlation id,
   * which the line saying the condition started carries.
   */
  report(error: unknown, component: StorageComponent, correlationId?: string): StorageFaultError | null {
    const fault = diagnoseStorageFault(error, [this.config.dataDir, this.config.readModelDir]);
    if (!fault) return null;
    const code = fault.code;
    this.refusedByCode.set(code, (this.refusedByCode.get(code) ?? 0) + 1);
    if (this.condition) {
      // Said once already; each refusal still names its own cause.
      this.condition.refusedWrites += 1;
      return fault;
    }
    this.condition = { code, component, message: fault.message, since: new Date(), began: performance.now(), refusedWrites: 1 };
    this.logger.warn(
      {
        correlationId,
        code,
        component,
        dataDir: this.config.dataDir,
        readModelDir: this.config.readModelDir,
        cause: String((error as Error)?.message ?? error),
      },
      `storage fault: ${this.condition.message}; commands are refused with 503 ${code} until it ends, queries keep answering`,
    );
    if (code !== 'storage_replaced') this.startProbing();
    return fault;
  }

  onApplicationShutdown(): void {
    if (this.probe) clearInterval(this.probe);
  }

  private startProbing(): void {
    if (this.probe) return;
    this.probe = setInterval(() => this.tryProbe(), this.config.storageProbeIntervalMs);
    this.probe.unref();
  }

  /**
   * Writes, syncs and removes a probe file in each directory. Its size is room for a
   * few group-commit transactions, so a disk with a few bytes free does not count as
   * healed only to fail the next command.
   */
  private tryProbe(): void {
    try {
      for (const dir of new Set([this.config.dataDir, this.config.readModelDir])) writeProbe(join(dir, '.storage-probe'));
      this.end();
    } catch {
      // Still refused: the condition goes on, already said once.
    }
  }

  private end(): void {
    const ended = this.condition;
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    this.condition = null;
    if (ended) {
      this.logger.info(
        { code: ended.code, component: ended.component, refusedWrites: ended.refusedWrites, seconds: (performance.now() - ended.began) / 1000 },
        'storage fault ended: writes are accepted again',
      );
    }
  }
}

const PROBE_BYTES = 256 * 1024;

const writeProbe = (file: string): void => {
  const fd = openSync(file, 'w', 0o600);
  try {
    writeSync(fd, Buffer.alloc(PROBE_BYTES));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
    unlinkSync(file);
  }
};
