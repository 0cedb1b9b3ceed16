import type { RecordedEvent } from '../envelope';
import type { AllSubscription, AppendResult, EventStore, ReadAllOptions } from '../event-store.port';
import type { ExpectedRevision } from '../expected-revision';
import type { NewEvent } from '../envelope';

/** A read from a position the store never returned: what EventStoreDB fails on. */
export class NotAReturnedPositionError extends Error {
  override readonly name = 'NotAReturnedPositionError';
}

/**
 * A model of EventStoreDB's rule for reading $all, over any store: only 0 (the start) and
 * positions the store itself returned may be read from. EventStoreDB positions are log
 * offsets; a read from another number lands inside or between records and fails on the
 * server (kurrent-io/KurrentDB#694: "the server has received a nonsense position as the
 * start of the read all operation (i.e. into the middle of a record)"; #3991), and a
 * subscription from one may silently never deliver (KurrentDB-Client-Dotnet#124).
 * Code above the port that computes positions (`position - 1`, a binary search) fails here
 * on the embedded store too, where any number would otherwise work.
 */
export class ReturnedPositionsOnlyStore implements EventStore {
  private readonly returned = new Set<number>([0]);

  constructor(private readonly inner: EventStore) {}

  async appendToStream(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    return this.seenResult(await this.inner.appendToStream(stream, events, expectedRevision));
  }

  async readStream(stream: string, options?: { fromRevision?: number }): Promise<RecordedEvent[]> {
    return this.seenAll(await this.inner.readStream(stream, options));
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.requireReturned(options.fromPosition ?? 0, 'readAll');
    return this.seenAll(await this.inner.readAll(options));
  }

  subscribeToAll(options: { fromPosition?: number } = {}): AllSubscription {
    this.requireReturned(options.fromPosition ?? 0, 'subscribeToAll');
    const inner = this.inner.subscribeToAll(options);
    const seen = (event: RecordedEvent) => this.seen(event);
    return {
      close: () => inner.close(),
      async *[Symbol.asyncIterator]() {
        for await (const event of inner) yield seen(event);
      },
    };
  }

  async headPosition(): Promise<number> {
    const head = await this.inner.headPosition();
    this.returned.add(head);
    return head;
  }

  /** The adapter's own way of answering: any number may be asked. */
  async eventAtOrAfter(position: number): Promise<RecordedEvent | null> {
    const event = await this.inner.eventAtOrAfter(position);
    return event && this.seen(event);
  }

  async positionAtTime(time: Date): Promise<number> {
    const position = await this.inner.positionAtTime(time);
    this.returned.add(position);
    return position;
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private requireReturned(position: number, call: string): void {
    if (!this.returned.has(position)) {
      throw new NotAReturnedPositionError(`${call} from ${position}: not a position the store returned (EventStoreDB would fail)`);
    }
  }

  private seen(event: RecordedEvent): RecordedEvent {
    this.returned.add(event.position);
    return event;
  }

  private seenAll(events: RecordedEvent[]): RecordedEvent[] {
    for (const event of events) this.returned.add(event.position);
    return events;
  }

  private seenResult(result: AppendResult): AppendResult {
    this.returned.add(result.position);
    return result;
  }
}
