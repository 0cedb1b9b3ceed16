import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { ensurePrivateDirectory } from '@ledger/event-store';
import { openReadModelDatabase, readModelFile } from '@ledger/projections';
import { LEDGER_CONFIG } from './injection-tokens';
import type { LedgerConfig } from '../config/ledger-config';

/**
 * The one connection to this instance's read-model file, shared by every read model so
 * that each can write its rows and its checkpoint in one transaction. Closed last:
 * the read models stop (and flush) before application shutdown.
 */
@Injectable()
export class ReadModelDatabase implements OnApplicationShutdown {
  readonly db: Database.Database;

  constructor(@Inject(LEDGER_CONFIG) config: LedgerConfig) {
    ensurePrivateDirectory(config.readModelDir);
    this.db = openReadModelDatabase(readModelFile(config));
  }

  onApplicationShutdown(): void {
    if (this.db.open) this.db.close();
  }
}
