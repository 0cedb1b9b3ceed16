import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { LEDGER_CONFIG } from '../infrastructure/injection-tokens';
import type { LedgerConfig } from '../config/ledger-config';
import { bootstrapKeysFile, keyIdOf, keyMatches, modifiedAt, readKeysFile, type Principal, type StoredKey } from '@ledger/access';

/**
 * The API keys, from LEDGER_KEYS_FILE. `ledger-cli keys add|revoke` edits the file; the
 * registry notices the change (checked at most once a second) without a restart.
 */
@Injectable()
export class KeyRegistry implements OnModuleInit {
  private keys = new Map<string, StoredKey>();
  private loadedMtime = -1;
  private checkedAt = -Infinity;

  constructor(
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(KeyRegistry.name);
  }

  onModuleInit(): void {
    const keyPath = bootstrapKeysFile(this.config.keysFile, this.config.dataDir, new Date());
    if (keyPath)
      this.logger.warn(
        { keysFile: this.config.keysFile, operatorKeyFile: keyPath },
        'no keys file: created one with an operator key; the key is in operatorKeyFile',
      );
    this.reload();
  }

  /** `correlationId`: the request presenting the key, named on the line if the keys file is reloaded for it. */
  authenticate(presented: string, correlationId?: string): Principal | null {
    this.reloadIfChanged(correlationId);
    const keyId = keyIdOf(presented);
    const stored = keyId ? this.keys.get(keyId) : undefined;
    if (!stored || stored.revokedAt !== null || !keyMatches(presented, stored.keyHash)) return null;
    return { keyId: stored.keyId, name: stored.name, role: stored.role, scope: stored.scope };
  }

  private reloadIfChanged(correlationId?: string): void {
    // Monotonic: on the wall clock, a step back would stop the reloads for as long as the step.
    const now = performance.now();
    if (now - this.checkedAt < 1_000) return;
    this.checkedAt = now;
    if (modifiedAt(this.config.keysFile) !== this.loadedMtime) this.reload(correlationId);
  }

  private reload(correlationId?: string): void {
    this.loadedMtime = modifiedAt(this.config.keysFile);
    this.keys = new Map(readKeysFile(this.config.keysFile).keys.map((key) => [key.keyId, key]));
    this.logger.info({ correlationId, keys: this.keys.size }, 'API keys loaded');
  }
}
