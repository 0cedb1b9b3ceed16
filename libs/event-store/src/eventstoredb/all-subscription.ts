import type { AllStreamResolvedEvent, Position } from '@eventstore/db-client';
import type { RecordedEvent } from '../envelope';
import type { AllSubscription } from '../event-store.port';
import { ledgerEventOf, type ForeignEventHandler } from './foreign-events';
import { isAfter } from './position.codec';

/** What the adapter needs of the client's $all subscription: `for await` and a way to stop it. */
export interface ClientAllSubscription extends AsyncIterable<AllStreamResolvedEvent> {
  unsubscribe(): Promise<void>;
}

const CLOSED = Symbol('closed');

/**
 * The port's AllSubscription over the client's catch-up subscription to $all.
 *
 * - Exclusive start: events at or before `after` are dropped. The server already starts
 *   after the given position; the check makes that a guarantee of this adapter rather than
 *   of one server version.
 * - System events are dropped (see system-events.ts), and so are events the ledger did not
 *   write, reported to `onForeign` (see foreign-events.ts).
 * - close() ends a pending `for await` at once (it does not wait for the next event), stops
 *   the server-side subscription, and is safe to call more than once. Breaking out of the
 *   loop closes it too. An error the client raises after close() is not reported: the
 *   consumer asked to stop.
 */
export class EventStoreDbAllSubscription implements AllSubscription {
  private closed = false;
  private closing: Promise<void> | undefined;
  /** Ends the one pending wait for the next event; null while none is pending. */
  private wakeOnClose: (() => void) | null = null;
  private iterated = false;

  constructor(
    private readonly source: ClientAllSubscription,
    private readonly after: Position | undefined,
    private readonly onClosed: (subscription: EventStoreDbAllSubscription) => void = () => undefined,
    private readonly onForeign: ForeignEventHandler = () => undefined,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    if (this.iterated) throw new Error('this subscription is already being iterated; subscribe again for a second reader');
    this.iterated = true;
    const iterator = this.source[Symbol.asyncIterator]();
    let last = this.after;
    try {
      while (!this.closed) {
        const next = await this.nextOrClosed(iterator);
        if (next === CLOSED || next.done) return;
        const event = next.value.event;
        if (event === undefined || !isAfter(event.position, last)) continue;
        last = event.position;
        const ledgerEvent = ledgerEventOf(event, this.onForeign);
        if (ledgerEvent !== null) yield ledgerEvent;
      }
    } catch (error) {
      if (!this.closed) throw error;
    } finally {
      await this.close();
    }
  }

  /**
   * The next item, or CLOSED as soon as close() is called. Not a Promise.race against one
   * long-lived close promise: every race would add a reaction to it that keeps its event
   * alive until close, which for a subscription held for the life of the process is a leak
   * of every event ever delivered. One wake-up per wait, dropped once the wait is over.
   */
  private nextOrClosed(iterator: AsyncIterator<AllStreamResolvedEvent>): Promise<IteratorResult<AllStreamResolvedEvent> | typeof CLOSED> {
    return new Promise((resolve, reject) => {
      const wake = () => resolve(CLOSED);
      this.wakeOnClose = wake;
      // Only this wait's own wake-up is dropped: after a skipped event the loop has already
      // begun the next wait (and set its wake-up) by the time this one's finally runs.
      iterator
        .next()
        .then(resolve, reject)
        .finally(() => {
          if (this.wakeOnClose === wake) this.wakeOnClose = null;
        });
    });
  }

  close(): Promise<void> {
    if (this.closing === undefined) {
      this.closed = true;
      this.wakeOnClose?.();
      this.closing = this.source.unsubscribe().finally(() => this.onClosed(this));
    }
    return this.closing;
  }
}
