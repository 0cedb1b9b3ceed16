import type { Consumer } from '@ledger/domain';
import type { DeviceView, PresentedAllocation, PresentedIp, PresentedNode, StateDocument, TimelineEntry } from '@ledger/projections';
import { renderTable, type Format } from './text-table';

export interface Replay {
  at: string;
  position: number;
  fromSnapshot: number | null;
  folded: number;
  nodeId: string | null;
  state: StateDocument;
  timeline: TimelineEntry[];
  /** Where the timeline came from, when not from an up-to-date audit index. */
  timelineNote: string | null;
}

const short = (token: unknown) => (typeof token === 'string' && token.length > 22 ? `${token.slice(0, 20)}…` : token);
const consumer = (c: Consumer | null | undefined) => (c ? `${c.controller}/${c.model}${c.machine ? `#${c.machine}` : ''}` : '');

type Column<Entity> = [string, (entity: Entity) => unknown];

/** A collection rendered with its columns, in its reading order. */
interface Table<Entity> {
  columns: Column<Entity>[];
  order?: (a: Entity, b: Entity) => number;
}

/** Columns for the collections everyone knows; any other collection shows its plain fields. */
const NODES: Table<PresentedNode> = {
  columns: [
    ['nodeId', (n) => n.nodeId],
    ['status', (n) => n.status],
    ['epoch', (n) => n.epoch],
    ['allocation', (n) => short(n.allocation?.token)],
    ['consumer', (n) => consumer(n.allocation?.consumer)],
    ['faults', (n) => n.faults.map((f) => f.name).join(',')],
    ['maintenance', (n) => (n.maintenance ? `${n.maintenance.by}: ${n.maintenance.reason}` : '')],
  ],
};

/** Allocations read best by node, then epoch. */
const ALLOCATIONS: Table<PresentedAllocation> = {
  columns: [
    ['token', (a) => short(a.token)],
    ['nodeId', (a) => a.nodeId],
    ['epoch', (a) => a.epoch],
    ['consumer', (a) => consumer(a.consumer)],
    ['status', (a) => a.status],
    ['live', (a) => a.live],
    ['current', (a) => a.current],
    ['ended', (a) => (a.ending ? `${a.ending.kind} at ${a.ending.at}` : '')],
  ],
  order: (a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : a.epoch - b.epoch),
};

const DEVICES: Table<DeviceView> = {
  columns: [
    ['deviceId', (d) => d.deviceId],
    ['hostname', (d) => d.hostname],
    ['mac', (d) => d.mac],
    ['allocation', (d) => short(d.token)],
    ['removed', (d) => (d.removed ? `${d.removed.reason} at ${d.removed.at}` : '')],
  ],
};

const LEASES: Table<PresentedIp> = {
  columns: [
    ['ip', (l) => l.ip],
    ['status', (l) => l.status],
    ['mac', (l) => l.current?.mac ?? ''],
    ['owner', (l) => (l.current ? (l.current.owner.kind === 'device' ? l.current.owner.deviceId : short(l.current.owner.token)) : '')],
    ['expires', (l) => l.current?.expiresAt ?? ''],
    ['leases', (l) => l.history.length],
  ],
};

const fieldsOf = (entity: unknown): Record<string, unknown> => (entity !== null && typeof entity === 'object' ? (entity as Record<string, unknown>) : {});

/** A collection nobody wrote columns for: its first entity's plain fields. */
const genericTable = (entities: unknown[]): Table<unknown> => {
  const first = fieldsOf(entities.find((entity) => entity !== null && typeof entity === 'object'));
  const names = Object.keys(first)
    .filter((name) => ['string', 'number', 'boolean'].includes(typeof first[name]) || first[name] === null)
    .slice(0, 8);
  return { columns: names.map((name): Column<unknown> => [name, (entity) => fieldsOf(entity)[name]]) };
};

const renderCollection = <Entity>(table: Table<Entity>, entities: Entity[], format: Format): string => {
  const ordered = table.order ? [...entities].sort(table.order) : entities;
  if (ordered.length === 0) return '(none)';
  return renderTable(
    table.columns.map(([name]) => name),
    ordered.map((entity) => table.columns.map(([, value]) => value(entity))),
    format,
  );
};

const renderAny = (collection: string, state: StateDocument, format: Format): string => {
  switch (collection) {
    case 'nodes':
      return renderCollection(NODES, state.nodes, format);
    case 'allocations':
      return renderCollection(ALLOCATIONS, state.allocations, format);
    case 'devices':
      return renderCollection(DEVICES, state.devices, format);
    case 'leases':
      return renderCollection(LEASES, state.leases, format);
    default:
      return renderCollection(genericTable(state[collection]), state[collection], format);
  }
};

const heading = (text: string, format: Format) => (format === 'md' ? `## ${text}` : `${text.toUpperCase()}\n`);

/** The replay as text: where in the log, the state then, and the story up to then. */
export const renderReplay = (replay: Replay, format: Format | 'json'): string => {
  if (format === 'json') return JSON.stringify(replay, null, 2);
  const scope = replay.nodeId ? ` for node ${replay.nodeId}` : '';
  const origin =
    replay.fromSnapshot !== null ? `snapshot at ${replay.fromSnapshot} + ${replay.folded} events` : `${replay.folded} events folded from the start`;
  const out = [
    format === 'md' ? `# State at position ${replay.position}${scope}` : `STATE AT POSITION ${replay.position}${scope.toUpperCase()}`,
    `as of ${replay.at} (${origin})`,
    '',
  ];
  for (const [collection, entities] of Object.entries(replay.state)) {
    out.push(heading(`${collection} (${entities.length})`, format));
    out.push(renderAny(collection, replay.state, format), '');
  }
  out.push(heading(`timeline${scope} up to position ${replay.position} (${replay.timeline.length} entries)`, format));
  if (replay.timelineNote) out.push(replay.timelineNote);
  out.push(
    replay.timeline.length === 0
      ? '(none)'
      : renderTable(
          ['pos', 'at', 'type', 'actor', 'token', 'summary'],
          replay.timeline.map((e) => [e.position, e.at, e.type, e.actor, short(e.token), e.summary]),
          format,
        ),
  );
  return out.join('\n');
};
