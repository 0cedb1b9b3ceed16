import type { RecordedEvent } from '../envelope';
import type { AllSubscription } from '../event-store.port';
import type { AppendNotifier } from './append-notifier';

/** What a subscription needs from its store. */
export interface SubscriptionSource {
  /** Events with position > `afterPosition`, in global order, at most `maxCount`. */
  readAfter(afterPosition: number, maxCount: number): RecordedEvent[];
  notifier: AppendNotifier;
  pollIntervalMs: number;
  /**
   * Has the notifier announce every commit the store has acknowledged and not announced yet
   * (it tells subscribers a little after its answers): a read then finds each of them.
   */
  announce?(): void;
}

const PAGE_SIZE = 256;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * Catch-up then live, pull-based: each next() hands out one event from the current
 * page; an empty page means "caught up", and the subscription then waits until this
 * handle commits (AppendNotifier) or the poll interval passes (another process may have
 * appended), and reads again after the last position it delivered. At most one page is
 * held in memory, however far behind the consumer is.
 *
 * Why this has no gaps: every write is a BEGIN IMMEDIATE transaction, so writers are
 * serialized and positions become visible in increasing order; a reader that has seen
 * position p never later sees a smaller one appear.
 */
export class SqliteAllSubscription implements AllSubscription, AsyncIterator<RecordedEvent, undefined> {
  private page: RecordedEvent[] = [];
  private nextInPage = 0;
  private lastPosition: number;
  private closed = false;
  private wakeUp: (() => void) | undefined;
  private previousPull: Promise<unknown> = Promise.resolve();
  /** The notifier's sequence when the current page was read. */
  private readAtSequence = -1;

  constructor(
    private readonly source: SubscriptionSource,
    fromPosition: number,
    private readonly onClose: (subscription: SqliteAllSubscription) => void = () => undefined,
  ) {
    this.lastPosition = fromPosition;
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent, undefined> {
    return this;
  }

  /** Pulls are serialized, so concurrent next() calls still get events in order. */
  next(): Promise<IteratorResult<RecordedEvent, undefined>> {
    const pull = this.previousPull.then(
      () => this.pull(),
      () => this.pull(),
    );
    this.previousPull = pull;
    return pull;
  }

  /** The rest of the page already read, without waiting (see AllSubscription.takeReady). */
  takeReady(): RecordedEvent[] {
    if (this.closed || this.nextInPage >= this.page.length) return [];
    const ready = this.page.slice(this.nextInPage);
    this.nextInPage = this.page.length;
    this.lastPosition = ready[ready.length - 1].position;
    return ready;
  }

  /** Called by `break` / `return` inside `for await`. */
  async return(): Promise<IteratorReturnResult<undefined>> {
    await this.close();
    return DONE;
  }

  /** Ends the iteration; a pending next() resolves as done right away. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.page = [];
    this.wakeUp?.();
    this.onClose(this);
  }

  private async pull(): Promise<IteratorResult<RecordedEvent, undefined>> {
    for (;;) {
      if (this.closed) return DONE;
      if (this.nextInPage < this.page.length) {
        const event = this.page[this.nextInPage++];
        this.lastPosition = event.position;
        return { done: false, value: event };
      }
      // Between pages, let the event loop run: events handed out from a page are only
      // microtasks, so a consumer catching up on a long log would otherwise starve every
      // request (a lease cascade with no checkpoint held a 1M-event server silent for 20 s).
      if (this.page.length > 0) {
        await yieldToEventLoop();
        if (this.closed) return DONE;
        this.source.announce?.();
        // A short page was the whole log as it stood; with no commit notified since, reading
        // again would find nothing, so wait for one (or the poll, for other processes' appends).
        if (this.page.length < PAGE_SIZE && this.source.notifier.sequence === this.readAtSequence) {
          this.page = [];
          await this.nextAppendOrPoll();
        }
      }
      if (this.closed) return DONE;
      this.source.announce?.();
      this.readAtSequence = this.source.notifier.sequence;
      this.page = this.source.readAfter(this.lastPosition, PAGE_SIZE);
      this.nextInPage = 0;
      if (this.page.length === 0) await this.nextAppendOrPoll();
    }
  }

  private nextAppendOrPoll(): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        cancelNotification();
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(wake, this.source.pollIntervalMs);
      const cancelNotification = this.source.notifier.once(wake);
      this.wakeUp = wake;
    });
  }
}
