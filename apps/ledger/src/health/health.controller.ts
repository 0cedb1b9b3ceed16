import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { LedgerViewService } from '../read-side/ledger-view.service';
import { StorageHealth } from './storage-health.service';

@Controller()
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly views: LedgerViewService,
    private readonly storage: StorageHealth,
  ) {}

  /**
   * Live when it answers; ready when the store answers and can write. `lag` is how far
   * the read models trail the log. While the disk refuses writes: 503, `storage_fault`,
   * and what the condition is (queries keep answering meanwhile).
   */
  @Get('healthz')
  async health(@Res({ passthrough: true }) response: Response) {
    const head = await this.store.headPosition();
    const readModels = { position: this.views.view.position, lag: head - this.views.view.position };
    const fault = this.storage.current;
    if (!fault) return { status: 'ok', store: { head, writable: true }, readModels };
    response.status(503);
    const { code, component, message, since, refusedWrites } = fault;
    return { status: 'storage_fault', store: { head, writable: false, fault: { code, component, message, since: since.toISOString(), refusedWrites } }, readModels };
  }
}
