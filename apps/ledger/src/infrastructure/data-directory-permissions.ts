import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { openToOthers } from '@ledger/event-store';
import { LEDGER_CONFIG } from './injection-tokens';
import type { LedgerConfig } from '../config/ledger-config';

/**
 * The data directories hold the whole history and the keys file: the ledger creates them
 * 0700 and its files 0600. One it finds open to others (made by hand, or by an older
 * version) is named at start with a warning, once per path; the ledger still starts, and
 * changes no mode an operator set.
 */
@Injectable()
export class DataDirectoryPermissions implements OnApplicationBootstrap {
  constructor(
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(DataDirectoryPermissions.name);
  }

  onApplicationBootstrap(): void {
    for (const { path, mode } of openToOthers([this.config.dataDir, this.config.readModelDir])) {
      this.logger.warn({ path, mode }, "%s is open to other users (mode %s): it holds the ledger's history or keys; chmod go-rwx it", path, mode);
    }
  }
}
