import { SqliteEventStore, type AppendResult } from '@ledger/event-store';
import { HistorySimulator } from './history-simulator';

export interface GenerateLogOptions {
  /** The embedded store's file; it must hold no events yet. */
  file: string;
  events: number;
  nodes?: number;
  seed?: number;
  start?: Date;
  meanGapMs?: number;
  onProgress?: (written: number, total: number) => void;
}

export interface GeneratedLog {
  events: number;
  position: number;
  seconds: number;
}

/** Appends in flight before the generator waits for them: big group-commit batches, bounded memory. */
const IN_FLIGHT = 20_000;

/**
 * Writes `events` events of simulated node histories through the embedded store, in
 * big group-commit batches. `recordedAt` is the simulated time of each append: the
 * store asks its clock once per append, in submission order, so a FIFO of the
 * simulated times stamps each append with its own.
 */
export const generateLog = async (options: GenerateLogOptions): Promise<GeneratedLog> => {
  const started = process.hrtime.bigint();
  const times: Date[] = [];
  let nextTime = 0;
  const store = await SqliteEventStore.open({
    file: options.file,
    synchronous: 'NORMAL',
    maxBatch: 8_192,
    clock: () => times[nextTime++] ?? new Date(),
  });
  try {
    if ((await store.headPosition()) !== 0) throw new Error(`${options.file} already holds events: generate into an empty data directory`);
    const simulator = new HistorySimulator({
      nodes: options.nodes ?? Math.max(10, Math.round(options.events / 200)),
      seed: options.seed ?? 1,
      start: options.start ?? new Date('2025-01-01T00:00:00.000Z'),
      meanGapMs: options.meanGapMs ?? 2_000,
    });
    let written = 0;
    let position = 0;
    let inFlight: Promise<AppendResult>[] = [];
    const settle = async () => {
      for (const result of await Promise.all(inFlight)) position = Math.max(position, result.position);
      inFlight = [];
      times.length = 0;
      nextTime = 0;
      options.onProgress?.(written, options.events);
    };
    while (written < options.events) {
      for (const append of simulator.step()) {
        if (written >= options.events) break;
        const events = append.events.slice(0, options.events - written);
        times.push(append.at);
        inFlight.push(store.appendToStream(append.stream, events, append.expectedRevision));
        written += events.length;
      }
      if (inFlight.length >= IN_FLIGHT) await settle();
    }
    await settle();
    return { events: written, position, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
  } finally {
    await store.close();
  }
};
