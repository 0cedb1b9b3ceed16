import { get, query } from './api';
import type { AuditEventsPage, Envelope, EventData } from './ledger-json';

/** One event of the log as the page holds it: the envelope, its time in ms, and its summary in words. */
export interface StoryEvent {
  position: number;
  at: number;
  recordedAt: string;
  type: string;
  stream: string;
  actor: string;
  data: EventData;
  summary: string;
}

/** What a page of the story is about: one node, one model, or one address. */
export type Subject = { kind: 'node'; nodeId: string } | { kind: 'model'; controller: string; model: string } | { kind: 'address'; ip: string };

export const subjectFilter = (subject: Subject): Record<string, string> =>
  subject.kind === 'node'
    ? { nodeId: subject.nodeId }
    : subject.kind === 'model'
      ? { controller: subject.controller, model: subject.model }
      : { ip: subject.ip };

export const subjectTitle = (subject: Subject): string =>
  subject.kind === 'node' ? `Node ${subject.nodeId}` : subject.kind === 'model' ? `Model ${subject.controller}/${subject.model}` : `Address ${subject.ip}`;

/** A story stops loading here and says so: the page stays responsive on any history. */
export const MAX_STORY_EVENTS = 50_000;

export const toStoryEvent = (envelope: Envelope, summary?: string): StoryEvent => ({
  position: envelope.position,
  at: Date.parse(envelope.recordedAt),
  recordedAt: envelope.recordedAt,
  type: envelope.type,
  stream: envelope.stream,
  actor: envelope.metadata?.actor ?? '',
  data: envelope.data ?? {},
  summary: summary ?? describe(envelope),
});

/** The audit timeline's summary for a node's events; a short line from the data otherwise. */
const describe = (envelope: Envelope): string => {
  const d = envelope.data ?? {};
  if (envelope.type === 'CommandRefused') return `REFUSED ${d.command}: ${d.code}: ${d.reason}`;
  const fields = Object.entries(d)
    .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))
    .slice(0, 5)
    .map(([name, value]) => `${name}=${String(value)}`);
  return `${envelope.type}${fields.length ? `: ${fields.join(', ')}` : ''}`;
};

export interface LoadedStory {
  events: StoryEvent[];
  /** The log position the audit index reflected when the story was read. */
  position: number;
  truncated: boolean;
}

/**
 * The subject's whole history from the audit API, page by page; for a node, each event
 * with the audit timeline's summary (refusals explain themselves there).
 */
export const loadStory = async (subject: Subject, onProgress: (loaded: number) => void, signal: AbortSignal): Promise<LoadedStory> => {
  const summaries = new Map<number, string>();
  const timeline = subject.kind === 'node' ? loadSummaries(subject.nodeId, summaries, signal) : Promise.resolve();
  const events: Envelope[] = [];
  let after: number | null = 0;
  let position = 0;
  while (after !== null && events.length < MAX_STORY_EVENTS) {
    const page: AuditEventsPage = await get(`/v1/audit/events${query({ ...subjectFilter(subject), after, limit: 1000 })}`, signal);
    events.push(...page.events);
    position = page.position;
    after = page.nextAfter;
    onProgress(events.length);
  }
  await timeline;
  return { events: events.map((envelope) => toStoryEvent(envelope, summaries.get(envelope.position))), position, truncated: after !== null };
};

interface TimelinePage {
  entries: { position: number; summary: string }[];
  nextAfter: number | null;
}

const loadSummaries = async (nodeId: string, into: Map<number, string>, signal: AbortSignal): Promise<void> => {
  let after: number | null = 0;
  while (after !== null && into.size < MAX_STORY_EVENTS) {
    const page: TimelinePage | null = await get<TimelinePage>(
      `/v1/audit/nodes/${encodeURIComponent(nodeId)}/timeline${query({ after, limit: 10000 })}`,
      signal,
    ).catch((error) => {
      if (error?.status === 404) return null;
      throw error;
    });
    if (!page) return;
    for (const entry of page.entries) into.set(entry.position, entry.summary);
    after = page.nextAfter;
  }
};
