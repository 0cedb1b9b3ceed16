/**
 * A synthetic projection for the properties of snapshots and checkpoints: it adds,
 * updates and removes entities (reporting each to the runtime, CollectionChanges), keeps
 * entities with no `lastPosition`, replaces a whole collection (which the runtime must
 * notice unreported), and keeps a plain counter beside its collections.
 */
import fc from 'fast-check';
import type { RecordedEvent } from '@ledger/event-store';
import { UNTRACKED } from '../collection-changes';
import type { Projection } from '../projection';

export interface Things {
  position: number;
  counter: number;
  items: Record<string, { v: number; lastPosition: number }>;
  /** Entities with no lastPosition: plain numbers. */
  plain: Record<string, number>;
}

export type Op =
  | { op: 'put'; key: string; v: number }
  | { op: 'bump'; key: string }
  | { op: 'remove'; key: string }
  | { op: 'plainSet'; key: string; v: number }
  | { op: 'plainDelete'; key: string }
  | { op: 'replaceItems' }
  | { op: 'count' };

export const things: Projection<Things> = {
  name: 'things.v1',
  initialState: () => ({ position: 0, counter: 0, items: {}, plain: {} }),
  apply: (state, event, changes) => {
    const op = event.data as Op;
    const position = event.position;
    switch (op.op) {
      case 'put':
        changes.changed('items', op.key, (state.items[op.key] = { v: op.v, lastPosition: position }), position);
        break;
      case 'bump': {
        const item = state.items[op.key];
        if (item) {
          item.v++;
          item.lastPosition = position;
          changes.changed('items', op.key, item, position);
        }
        break;
      }
      case 'remove':
        delete state.items[op.key];
        changes.removed('items', op.key, position);
        break;
      case 'plainSet':
        state.plain[op.key] = op.v;
        changes.changed('plain', op.key, op.v, position);
        break;
      case 'plainDelete':
        delete state.plain[op.key];
        changes.removed('plain', op.key, position);
        break;
      case 'replaceItems':
        // A whole new object: the writer must notice and not trust its trackers.
        state.items = Object.fromEntries(Object.entries(state.items).filter(([key]) => key !== 'a'));
        break;
      case 'count':
        state.counter++;
        break;
    }
    state.position = position;
  },
};

const key = fc.constantFrom('a', 'b', 'c', 'd', 'e');
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('put' as const), key, v: fc.integer({ min: 0, max: 9 }) }),
  fc.record({ op: fc.constant('bump' as const), key }),
  fc.record({ op: fc.constant('remove' as const), key }),
  fc.record({ op: fc.constant('plainSet' as const), key, v: fc.integer({ min: 0, max: 9 }) }),
  fc.record({ op: fc.constant('plainDelete' as const), key }),
  fc.record({ op: fc.constant('replaceItems' as const) }),
  fc.record({ op: fc.constant('count' as const) }),
);

/** The ops as events of the log, each `gaps[i]` positions after the one before. */
export const recorded = (ops: Op[], gaps: number[]): RecordedEvent[] => {
  let position = 0;
  return ops.map((data, i) => {
    position += 1 + (gaps[i] ?? 0);
    return {
      id: `e${position}`,
      type: data.op,
      stream: 'things',
      revision: i,
      position,
      recordedAt: new Date(position * 1000).toISOString(),
      data,
      metadata: { correlationId: 'c', causationId: null, actor: 't', requestId: null, schemaVersion: 1 },
    };
  });
};

/** The fold up to `position`, as plain data. */
export const foldTo = (events: RecordedEvent[], position: number): Things => {
  const state = things.initialState();
  for (const event of events) if (event.position <= position) things.apply(state, event, UNTRACKED);
  return JSON.parse(JSON.stringify(state)) as Things;
};
