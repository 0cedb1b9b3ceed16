import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { Observable, type Subscriber } from 'rxjs';
import { deriveAuditFields, matchesAuditFilter, type AuditFields, type LiveAuditFilter } from '@ledger/projections';
import { LogFollower, type EventStore, type RecordedEvent } from '@ledger/event-store';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { SubscriptionRestarts } from '../infrastructure/subscription-restarts';
import { LedgerViewService } from '../read-side/ledger-view.service';

/** One server-sent event: the envelope as data, its global position as the id a client resumes from. */
export interface AuditStreamMessage {
  id: string;
  data: RecordedEvent;
}

/**
 * The log as a live, filtered stream: the store's subscription from a position (catch-up,
 * then live) as an rxjs Observable, through the shared LogFollower, so a dropped store
 * subscription resubscribes from the last event sent (with backoff, counted in
 * ledger_subscription_restarts_total) instead of ending the client's stream. Open streams
 * end when the ledger stops, so a browser holding one never keeps a graceful stop waiting.
 */
@Injectable()
export class AuditStreamService implements BeforeApplicationShutdown {
  private readonly open = new Set<Subscriber<AuditStreamMessage>>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly views: LedgerViewService,
    private readonly restarts: SubscriptionRestarts,
  ) {}

  /** Events after `fromPosition` that pass the filter, until the client goes away. */
  events(filter: LiveAuditFilter, fromPosition: number): Observable<AuditStreamMessage> {
    return new Observable<AuditStreamMessage>((subscriber) => {
      let sentUpTo = fromPosition;
      const needsConsumer = filter.controller !== undefined || filter.model !== undefined;
      const follower = new LogFollower(this.store, {
        subscriber: 'audit-stream',
        checkpoint: () => sentUpTo,
        handle: async (event) => {
          if (subscriber.closed || event.position <= sentUpTo) return;
          const fields = needsConsumer ? await this.withConsumer(event) : deriveAuditFields(event);
          if (matchesAuditFilter(event, fields, filter)) subscriber.next({ id: String(event.position), data: event });
          sentUpTo = event.position;
        },
        onRestart: this.restarts.record,
      });
      this.open.add(subscriber);
      follower.start();
      return () => {
        this.open.delete(subscriber);
        void follower.stop();
      };
    });
  }

  /**
   * An event's audit fields with the consumer its token was issued to, as the audit index
   * records them: tokens never change hands, so the read model's answer is final (it is
   * awaited up to this event if it has not folded the acquire yet).
   */
  private async withConsumer(event: RecordedEvent): Promise<AuditFields> {
    const fields = deriveAuditFields(event);
    if (fields.token === null || fields.controller !== null) return fields;
    let allocation = this.views.view.allocations[fields.token];
    if (!allocation) allocation = (await this.views.atLeast(event.position).catch(() => this.views.view)).allocations[fields.token];
    return allocation ? { ...fields, controller: allocation.consumer.controller, model: allocation.consumer.model } : fields;
  }

  beforeApplicationShutdown(): void {
    for (const subscriber of this.open) subscriber.complete();
    this.open.clear();
  }
}
