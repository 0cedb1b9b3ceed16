import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import {
  AuditIndexReader,
  deriveAuditFields,
  eventAtOrAfter,
  ledgerProjection,
  openReadModelDatabase,
  SnapshotReader,
  stateAt,
  timelineEntryOf,
  type TimelineEntry,
} from '@ledger/projections';
import type { SqliteReadOnlyEventStore } from '@ledger/event-store';
import { LEDGER_ID } from '@ledger/domain';
import { presentState } from '@ledger/projections';
import { stringFlag } from '../parse-args';
import { UsageError, type CliCommand } from '../cli-command';
import { ledgerFiles, openLog } from '../data-dir';
import { pointFlag, positionAtOrBefore } from '../point-flag';
import { renderReplay, type Replay } from '../replay/render-replay';

const USAGE = `usage: ledger-cli replay --until T|P [--node X] [--format table|json|md] [--limit N] [--data-dir D] [--read-model-dir R]
Incident review: every read model as it stood at a point of the log (the same fold,
stopped there, started from the nearest snapshot), and the story up to that point.
options:
  --until T|P   a global position, or an ISO-8601 time (the last event recorded by then)
  --node X      only what concerns node X, and its whole timeline (refusals included)
  --format F    table (default), md (Markdown) or json
  --limit N     timeline entries at most (default: 1000 with --node, else the last 50 events)
Safe while the ledger runs: the log and the read models are opened read-only.`;

const PAGE = 2_000;
const MAX_NODE_TIMELINE = 1_000_000;

/** The timeline from the audit index when it is there and has got that far; otherwise straight from the log. */
const timelineUpTo = async (
  log: SqliteReadOnlyEventStore,
  index: AuditIndexReader | null,
  position: number,
  nodeId: string | null,
  limit: number,
): Promise<{ entries: TimelineEntry[]; note: string | null }> => {
  const usable = index !== null && index.position() >= position;
  if (nodeId) {
    let entries: TimelineEntry[] = [];
    let note: string | null = null;
    if (usable) entries = (await index.timeline(nodeId, { until: position, limit: MAX_NODE_TIMELINE }))?.entries ?? [];
    else {
      note = '(the audit index is missing or behind: read from the log, without events of IP addresses the node held)';
      for (let after = 0; after < position;) {
        const page = log.readAfter(after, PAGE);
        if (page.length === 0) break;
        for (const event of page) if (event.position <= position && deriveAuditFields(event).nodeId === nodeId) entries.push(timelineEntryOf(event));
        after = page[page.length - 1].position;
      }
    }
    // The story's end matters most in a replay: keep the last entries.
    if (entries.length > limit) {
      note = `${note ? `${note} ` : ''}(${entries.length - limit} earlier entries not shown: --limit)`;
      entries = entries.slice(-limit);
    }
    return { entries, note };
  }
  const from = Math.max(0, position - limit);
  const events = log.readAfter(from, limit).filter((event) => event.position <= position);
  return { entries: events.map(timelineEntryOf), note: null };
};

export const replayCommand: CliCommand = {
  name: 'replay',
  summary: 'the read models as they stood at a time or position, and the timeline up to it',
  options: {
    until: { type: 'string' },
    node: { type: 'string' },
    format: { type: 'string' },
    limit: { type: 'string' },
    'data-dir': { type: 'string' },
    'read-model-dir': { type: 'string' },
  },
  usage: USAGE,
  async run(args, io) {
    const until = pointFlag(args, 'until');
    if (!until) throw new UsageError('--until is required');
    const nodeId = stringFlag(args, 'node') ?? null;
    if (nodeId !== null && !LEDGER_ID.test(nodeId)) throw new UsageError('--node must be a node id');
    const format = stringFlag(args, 'format') ?? 'table';
    if (!['table', 'json', 'md'].includes(format)) throw new UsageError('--format must be table, json or md');
    const limitFlag = stringFlag(args, 'limit');
    if (limitFlag !== undefined && !/^[1-9][0-9]{0,5}$/.test(limitFlag)) throw new UsageError('--limit must be a positive integer');
    const limit = limitFlag ? Number(limitFlag) : nodeId ? 1_000 : 50;

    const files = ledgerFiles(args, io);
    const log = openLog(files);
    const readModels: Database.Database | null = existsSync(files.readModelFile) ? openReadModelDatabase(files.readModelFile, { readonly: true }) : null;
    try {
      const head = await log.headPosition();
      const position = await positionAtOrBefore(log, until, head);
      const snapshots = readModels ? new SnapshotReader(readModels, ledgerProjection.name) : null;
      const result = await stateAt(log, ledgerProjection, position, snapshots);
      const at = 'time' in until ? until.time : new Date(result.lastRecordedAt ?? (await eventAtOrAfter(log, 1))?.recordedAt ?? 0);
      const timeline = await timelineUpTo(log, readModels ? new AuditIndexReader(readModels, log) : null, position, nodeId, limit);
      const replay: Replay = {
        at: at.toISOString(),
        position,
        fromSnapshot: result.snapshot,
        folded: result.folded,
        nodeId,
        state: presentState(result.state, at, nodeId ? { nodeId } : {}),
        timeline: timeline.entries,
        timelineNote: timeline.note,
      };
      io.out(renderReplay(replay, format as 'table' | 'json' | 'md'));
      return 0;
    } finally {
      readModels?.close();
      await log.close();
    }
  },
};
