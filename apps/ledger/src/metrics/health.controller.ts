import { Controller, Get, Inject } from '@nestjs/common';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { LedgerViewService } from '../read-models/ledger-view.service';

@Controller()
export class HealthController {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore, private readonly views: LedgerViewService) {}

  /** Live when it answers; ready when the store answers. `lag` is how far the read models trail the log. */
  @Get('healthz')
  async health() {
    const head = await this.store.headPosition();
    return { status: 'ok', store: { head }, readModels: { position: this.views.view.position, lag: head - this.views.view.position } };
  }
}
