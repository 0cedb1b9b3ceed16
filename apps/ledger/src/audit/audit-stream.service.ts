import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { Observable, type Subscriber } from 'rxjs';
import { deriveAuditFields, matchesAuditFilter, type AuditFields, type LiveAuditFilter } from '@ledger/projections';
import { parseToken } from '@ledger/domain';
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

  /** Events after `fromPosition` that pass the filter, until the client goes away. */
  events(filter: LiveAuditFilter, fromPosition: number): Observable<AuditStreamMessage> {
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
   * An event's audit fields, completed from the read model where the event itself does not
   * say: the consumer its token was issued to (as the audit index records it), and for a
   * lease's renewal, release or expiry (which name only the lease) the owner that was
   * granted it, so a node's or a model's stream shows its leases ending. Owners and tokens
   * never change, so the read model's answer is final; it is awaited up to this event if
   * it has not folded that far.
   */
  private async fieldsOf(event: RecordedEvent): Promise<AuditFields> {
    const fields = deriveAuditFields(event);
    const leaseId = (event.data as { leaseId?: unknown } | null)?.leaseId;
    const needsOwner = fields.token === null && fields.ip !== null && typeof leaseId === 'string';
    const needsConsumer = fields.controller === null && (fields.token !== null || needsOwner);
    if (!needsOwner && !needsConsumer) return fields;
    let view = this.views.view;
    const ownerToken = () => view.leases[fields.ip!]?.leases.find((lease) => lease.leaseId === leaseId)?.owner.token ?? null;
    if (needsOwner && ownerToken() === null) view = await this.views.atLeast(event.position).catch(() => this.views.view);
    const token = needsOwner ? ownerToken() : fields.token;
    if (token === null) return fields;
    if (!view.allocations[token]) view = await this.views.atLeast(event.position).catch(() => this.views.view);
    const allocation = view.allocations[token];
    return {
      ...fields,
      token,
      nodeId: fields.nodeId ?? parseToken(token)?.nodeId ?? null,
      controller: allocation?.consumer.controller ?? null,
      model: allocation?.consumer.model ?? null,
    };
  }

  beforeApplicationShutdown(): void {
    for (const subscriber of this.open) subscriber.complete();
    this.open.clear();
  }
}
