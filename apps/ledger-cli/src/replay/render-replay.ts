import type { TimelineEntry } from '@ledger/projections';
import { renderTable, type Format } from './text-table';

export interface Replay {
  at: string;
  position: number;
  fromSnapshot: number | null;
  folded: number;
  nodeId: string | null;
  state: Record<string, unknown[]>;
  timeline: TimelineEntry[];
  /** Where the timeline came from, when not from an up-to-date audit index. */
  timelineNote: string | null;
}

const short = (token: unknown) => (typeof token === 'string' && token.length > 22 ? `${token.slice(0, 20)}…` : token);
const consumer = (c: any) => (c ? `${c.controller}/${c.model}${c.machine ? `#${c.machine}` : ''}` : '');

/** Columns for the collections everyone knows; any other collection shows its plain fields. */
const COLUMNS: Record<string, [string, (entity: any) => unknown][]> = {
  nodes: [
    ['nodeId', (n) => n.nodeId],
    ['status', (n) => n.status],
    ['epoch', (n) => n.epoch],
    ['allocation', (n) => short(n.allocation?.token)],
    ['consumer', (n) => consumer(n.allocation?.consumer)],
    ['faults', (n) => (n.faults ?? []).map((f: any) => f.name).join(',')],
    ['maintenance', (n) => (n.maintenance ? `${n.maintenance.by}: ${n.maintenance.reason}` : '')],
  ],
  allocations: [
    ['token', (a) => short(a.token)],
    ['nodeId', (a) => a.nodeId],
    ['epoch', (a) => a.epoch],
    ['consumer', (a) => consumer(a.consumer)],
    ['status', (a) => a.status],
    ['live', (a) => a.live],
    ['current', (a) => a.current],
    ['ended', (a) => (a.ending ? `${a.ending.kind} at ${a.ending.at}` : '')],
  ],
  devices: [
    ['deviceId', (d) => d.deviceId],
    ['hostname', (d) => d.hostname],
    ['mac', (d) => d.mac],
    ['allocation', (d) => short(d.token)],
    ['removed', (d) => (d.removed ? `${d.removed.reason} at ${d.removed.at}` : '')],
  ],
  leases: [
    ['ip', (l) => l.ip],
    ['status', (l) => l.status],
    ['mac', (l) => l.current?.mac ?? ''],
    ['owner', (l) => (l.current ? (l.current.owner.kind === 'device' ? l.current.owner.deviceId : short(l.current.owner.token)) : '')],
    ['expires', (l) => l.current?.expiresAt ?? ''],
    ['leases', (l) => l.history?.length ?? 0],
  ],
};

/** Allocations read best by node, then epoch; everything else by key. */
const ORDER: Record<string, (a: any, b: any) => number> = {
  allocations: (a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : a.epoch - b.epoch),
};

const genericColumns = (entities: unknown[]): [string, (entity: any) => unknown][] => {
  const first = entities.find((entity) => entity && typeof entity === 'object') as Record<string, unknown> | undefined;
  const names = first ? Object.keys(first).filter((name) => ['string', 'number', 'boolean'].includes(typeof first[name]) || first[name] === null).slice(0, 8) : [];
  return names.map((name) => [name, (entity: any) => entity?.[name]]);
};

const heading = (text: string, format: Format) => (format === 'md' ? `## ${text}` : `${text.toUpperCase()}\n`);

/** The replay as text: where in the log, the state then, and the story up to then. */
export const renderReplay = (replay: Replay, format: Format | 'json'): string => {
  if (format === 'json') return JSON.stringify(replay, null, 2);
  const scope = replay.nodeId ? ` for node ${replay.nodeId}` : '';
  const origin = replay.fromSnapshot !== null ? `snapshot at ${replay.fromSnapshot} + ${replay.folded} events` : `${replay.folded} events folded from the start`;
  const out = [format === 'md' ? `# State at position ${replay.position}${scope}` : `STATE AT POSITION ${replay.position}${scope.toUpperCase()}`, `as of ${replay.at} (${origin})`, ''];
  for (const [collection, entities] of Object.entries(replay.state)) {
    const columns = COLUMNS[collection] ?? genericColumns(entities);
    out.push(heading(`${collection} (${entities.length})`, format));
    const ordered = ORDER[collection] ? [...entities].sort(ORDER[collection]) : entities;
    out.push(ordered.length === 0 ? '(none)' : renderTable(columns.map(([name]) => name), ordered.map((entity) => columns.map(([, value]) => value(entity))), format), '');
  }
  out.push(heading(`timeline${scope} up to position ${replay.position} (${replay.timeline.length} entries)`, format));
  if (replay.timelineNote) out.push(replay.timelineNote);
  out.push(
    replay.timeline.length === 0
      ? '(none)'
      : renderTable(['pos', 'at', 'type', 'actor', 'token', 'summary'], replay.timeline.map((e) => [e.position, e.at, e.type, e.actor, short(e.token), e.summary]), format),
  );
  return out.join('\n');
};
