import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { Observable, type Subscriber } from 'rxjs';
import { auditFieldsInView, matchesAuditFilter, type AuditFields, type LiveAuditFilter } from '@ledger/projections';
import { LogFollower, type EventStore, type RecordedEvent } from '@ledger/event-store';
import { EVENT_STORE } from '../infrastructure/injection-tokens';
import { SubscriptionRestarts } from '../infrastructure/subscription-restarts';
import { LedgerViewService } from '../read-models/ledger-view.service';

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

  /** Events after `fromPosition` that pass the filter, until the client goes away; its resubscriptions are logged with the request's correlation id. */
  events(filter: LiveAuditFilter, fromPosition: number, correlationId: string): Observable<AuditStreamMessage> {
    return new Observable<AuditStreamMessage>((subscriber) => {
      let sentUpTo = fromPosition;
      const follower = new LogFollower(this.store, {
        subscriber: 'audit-stream',
        checkpoint: () => sentUpTo,
        handle: async (event) => {
          if (subscriber.closed || event.position <= sentUpTo) return;
          const fields = await this.fieldsOf(event);
          if (matchesAuditFilter(event, fields, filter)) subscriber.next({ id: String(event.position), data: event });
          sentUpTo = event.position;
        },
        onRestart: (restart) => this.restarts.record(restart, correlationId),
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
   * An event's audit fields, completed from the read model where the event itself does not
   * say (auditFieldsInView): the consumer its token was issued to, and for a lease's
   * renewal, release or expiry the owner that was granted it, so a node's or a model's
   * stream shows its leases ending. If the read model has not folded that far, it is
   * awaited up to this event.
   */
  private async fieldsOf(event: RecordedEvent): Promise<AuditFields> {
    const now = auditFieldsInView(this.views.view, event);
    if (!now.missing) return now.fields;
    const later = await this.views.atLeast(event.position).catch(() => this.views.view);
    return auditFieldsInView(later, event).fields;
  }

  beforeApplicationShutdown(): void {
    for (const subscriber of this.open) subscriber.complete();
    this.open.clear();
  }
}
