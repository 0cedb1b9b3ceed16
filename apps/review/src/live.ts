import { headers, query } from './api';
import type { Envelope } from './ledger-json';

export interface LiveEvent {
  id: number;
  data: Envelope;
}

/**
 * `GET /v1/audit/stream` read with fetch, not EventSource: EventSource cannot send an
 * Authorization header, and the key must never go into a URL. Reconnects with
 * Last-Event-ID after a drop (growing waits), so no event is missed or seen twice.
 */
export class LiveStream {
  private controller = new AbortController();
  private stopped = false;

  constructor(
    private readonly filter: Record<string, string>,
    private lastId: number,
    private readonly onEvent: (event: LiveEvent) => void,
    private readonly onStatus: (status: string) => void,
  ) {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.controller.abort();
  }

  private async run(): Promise<void> {
    let wait = 500;
    while (!this.stopped) {
      try {
        const response = await fetch(`/v1/audit/stream${query(this.filter)}`, {
          headers: { ...headers(), accept: 'text/event-stream', 'last-event-id': String(this.lastId) },
          signal: this.controller.signal,
          cache: 'no-store',
        });
        if (!response.ok || !response.body) {
          this.onStatus(`live updates stopped: the ledger answered ${response.status}`);
          if (response.status === 401 || response.status === 403) return;
        } else {
          this.onStatus('live: new events appear as they are recorded');
          wait = 500;
          await this.read(response.body);
        }
      } catch (error) {
        if (this.stopped) return;
        this.onStatus(`live updates interrupted (${(error as Error).message}); reconnecting`);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, 15_000);
    }
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        this.dispatch(block);
      }
    }
  }

  private dispatch(block: string): void {
    let id: number | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('id:')) id = Number(line.slice(3).trim());
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (id === null || data.length === 0) return;
    this.lastId = id;
    this.onEvent({ id, data: JSON.parse(data.join('\n')) });
  }
}
