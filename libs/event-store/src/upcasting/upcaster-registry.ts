import type { RecordedEvent } from '../envelope';

/** Turns the `data` of one event type from `fromVersion` into the shape of `fromVersion + 1`. */
export interface Upcaster {
  type: string;
  fromVersion: number;
  upcast(data: unknown): unknown;
}

/** Every event type starts at schema version 1; each upcaster of a type adds one. */
const FIRST_VERSION = 1;

export class EventFromTheFutureError extends Error {
  override readonly name = 'EventFromTheFutureError';
}

/**
 * The one place that knows how old event shapes become current ones. Events are
 * stored as written, never rewritten; whoever loads them (the decider runner, the
 * projections, time travel, the CLI's export) gets the current shape, because every
 * store hands events out through `upcast`. An event written with a newer schema
 * version than this code knows is refused loudly rather than folded wrongly.
 */
export class UpcasterRegistry {
  private readonly chains = new Map<string, Upcaster[]>();

  constructor(upcasters: readonly Upcaster[]) {
    for (const upcaster of [...upcasters].sort((a, b) => a.fromVersion - b.fromVersion)) {
      const chain = this.chains.get(upcaster.type) ?? [];
      const expected = FIRST_VERSION + chain.length;
      if (upcaster.fromVersion !== expected) {
        throw new TypeError(`upcasters of ${upcaster.type}: expected one from version ${expected}, got one from ${upcaster.fromVersion}`);
      }
      this.chains.set(upcaster.type, [...chain, upcaster]);
    }
  }

  /** The schema version new events of this type are written with. */
  currentVersion(type: string): number {
    return FIRST_VERSION + (this.chains.get(type)?.length ?? 0);
  }

  /** The event in its current shape: the same object when it already is. */
  upcast<Event extends RecordedEvent>(event: Event): Event {
    const chain = this.chains.get(event.type);
    const current = FIRST_VERSION + (chain?.length ?? 0);
    const version = event.metadata.schemaVersion ?? FIRST_VERSION;
    if (version === current) return event;
    if (version > current) {
      throw new EventFromTheFutureError(`${event.stream}@${event.revision} (${event.type}) has schema version ${version}; this code knows up to ${current}`);
    }
    let data = event.data;
    for (const upcaster of chain!.slice(version - FIRST_VERSION)) data = upcaster.upcast(data);
    return { ...event, data, metadata: { ...event.metadata, schemaVersion: current } };
  }
}

/** Upcasts nothing: for stores opened by tools that must see events exactly as stored. */
export const NO_UPCASTERS = new UpcasterRegistry([]);
