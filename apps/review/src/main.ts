/**
 * The review page's controller: it wires the find box, the timeline, the cursor, the diff,
 * the state panel and the live stream to one view state that the URL mirrors.
 * That view state and its transitions are one state machine (every panel reads it, every
 * control changes it); the panels draw themselves in their own files (timeline-view,
 * state-panel, diff-panel, event-list, find, live), and signing in has its own (sign-in).
 */
import { ApiError, get, storedKey } from './api';
import { cursorForTime, cursorTime, stepFrom } from './cursor';
import { byId, fill, h } from './dom';
import { showDiff } from './diff-panel';
import { markCursor, showEventList } from './event-list';
import { wireFindForm } from './find-form';
import { buildLanes, type LaneLayout } from './lanes';
import { LiveStream } from './live';
import { showApp, signIn, wireSignIn } from './sign-in';
import { renderState } from './state-panel';
import { stateUrl, type StateDoc } from './state-doc';
import { loadStory, MAX_STORY_EVENTS, subjectFilter, subjectTitle, toStoryEvent, type StoryEvent, type Subject } from './story';
import { TimelineView, type TimeWindow } from './timeline-view';
import { readUrl, writeUrl, type ViewState } from './url-state';

declare global {
  interface Window {
    /** The page's own timings (request to a drawn story), which the browser test reads. */
    reviewTimings: Record<string, number>;
  }
}

const view: ViewState = readUrl(location);
let events: StoryEvent[] = [];
let loadPosition = 0;
let live: LiveStream | null = null;
let loading: AbortController | null = null;
let stateRequest: AbortController | null = null;
let refreshTimer: number | undefined;
/** Measured by the page itself (the browser test reports it): request to a drawn story. */
const timings: Record<string, number> = {};
window.reviewTimings = timings;

const timeline = new TimelineView(byId('timeline'), {
  cursorAt: (time) => setCursor(cursorForTime(events, time)),
  step: (direction) => stepCursor(direction),
  openEvent: (position) => openEvent(position),
  windowChanged: (window) => windowChanged(window),
});

// ---- signing in ---------------------------------------------------------------------

wireSignIn(
  () => {
    if (view.subject) void openStory(view.subject);
  },
  () => live?.stop(),
);

// ---- finding --------------------------------------------------------------------------

wireFindForm((hit) => {
  view.at = hit.at ?? view.at;
  view.from = view.to = null;
  void openStory(hit.subject);
});

// ---- the story ------------------------------------------------------------------------

const status = (text: string) => (byId('story-status').textContent = text);

const openStory = async (subject: Subject): Promise<void> => {
  timings.requested = performance.now();
  loading?.abort();
  live?.stop();
  live = null;
  loading = new AbortController();
  if (JSON.stringify(subject) !== JSON.stringify(view.subject)) view.compare = null;
  view.subject = subject;
  byId('story').hidden = false;
  byId('story').setAttribute('data-ready', 'false');
  byId('story-title').textContent = subjectTitle(subject);
  fill(byId('events'));
  fill(byId('state'), h('p', { class: 'empty' }, 'Loading…'));
  status('Loading its history…');
  try {
    const story = await loadStory(subject, (count) => status(`Loading its history… ${count.toLocaleString()} events so far`), loading.signal);
    events = story.events;
    loadPosition = story.position;
    timings.loaded = performance.now();
    timeline.setLanes(buildLanes(events, laneLayout(subject)));
    const count = `${events.length.toLocaleString()} events`;
    if (events.length === 0) status('This history is empty: the ledger has no events about it.');
    else if (story.truncated)
      status(`This history is huge: showing its first ${MAX_STORY_EVENTS.toLocaleString()} events only; pick a narrower subject or time.`);
    else status(`${count}${events.length > 5_000 ? ' (a long history: zoom in to read single events)' : ''}`);
    const first = events[0]?.at ?? Date.now() - 3_600_000;
    const last = Math.max(events[events.length - 1]?.at ?? Date.now(), first + 1_000);
    const pad = Math.max(1_000, (last - first) * 0.05);
    timeline.setWindow(view.from !== null && view.to !== null ? { from: view.from, to: view.to } : { from: first - pad, to: last + pad });
    // The zoom is part of what a link reproduces, from the first drawing on.
    view.from = timeline.currentWindow.from;
    view.to = timeline.currentWindow.to;
    applyCursor();
    renderEventList();
    await new Promise((drawn) => requestAnimationFrame(drawn));
    timings.drawn = performance.now();
    byId('story').setAttribute('data-ready', 'true');
    byId('story').setAttribute('data-events', String(events.length));
  } catch (error) {
    if ((error as Error).name === 'AbortError') return;
    status(error instanceof ApiError ? error.message : String(error));
    fill(byId('state'), h('p', { class: 'error', role: 'alert' }, error instanceof ApiError ? error.message : String(error)));
  }
};

/** A model's lanes are grouped by machine: each node's containers and leases under its name. */
const laneLayout = (subject: Subject): LaneLayout => (subject.kind === 'model' ? 'by-node' : 'flat');

const windowChanged = (window: TimeWindow): void => {
  view.from = window.from;
  view.to = window.to;
  writeUrl(view);
  renderEventList();
};

// ---- the cursor -----------------------------------------------------------------------

const cursorTimeNow = (): number | null => cursorTime(events, view.at);

const setCursor = (at: string | null): void => {
  view.at = at;
  applyCursor();
};

const stepCursor = (direction: -1 | 1 | 'first' | 'last'): void => {
  const target = stepFrom(events, view.at, direction);
  if (target !== null) setCursor(target);
};

/** Puts the cursor where the view says, shows the state then, and follows live when it is "now". */
const applyCursor = (): void => {
  writeUrl(view);
  const time = cursorTimeNow();
  timeline.setCursor(time ?? (view.at === null ? Date.now() : null));
  byId<HTMLInputElement>('cursor-input').value = view.at ?? '';
  byId('now').setAttribute('aria-pressed', String(view.at === null));
  markCursorInList();
  void refreshState();
  if (view.at === null) startLive();
  else {
    live?.stop();
    live = null;
  }
};

byId<HTMLFormElement>('cursor-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const raw = byId<HTMLInputElement>('cursor-input').value.trim();
  if (raw === '' || raw === 'now') return setCursor(null);
  if (/^\d+$/.test(raw) || !Number.isNaN(Date.parse(raw))) return setCursor(/^\d+$/.test(raw) ? raw : new Date(raw).toISOString());
  status(`"${raw}" is neither a time (2026-11-29T13:05:00Z) nor a position (digits)`);
});
byId('now').addEventListener('click', () => setCursor(null));
byId('zoom-in').addEventListener('click', () => timeline.zoom(0.5, cursorTimeNow() ?? undefined));
byId('zoom-out').addEventListener('click', () => timeline.zoom(2, cursorTimeNow() ?? undefined));
byId('pan-left').addEventListener('click', () => timeline.pan(-0.25));
byId('pan-right').addEventListener('click', () => timeline.pan(0.25));
byId('fit').addEventListener('click', () => {
  view.from = view.to = null;
  if (view.subject) void openStory(view.subject);
});
byId('pin').addEventListener('click', () => {
  view.compare = view.at ?? String(loadPosition);
  void refreshState();
});

// ---- state and diff at the cursor ---------------------------------------------------------

const refreshState = async (): Promise<void> => {
  const subject = view.subject;
  if (!subject) return;
  stateRequest?.abort();
  const request = (stateRequest = new AbortController());
  const host = byId('state');
  host.setAttribute('aria-busy', 'true');
  try {
    const [doc, compare] = await Promise.all([
      get<StateDoc>(stateUrl(subject, view.at), request.signal),
      view.compare !== null ? get<StateDoc>(stateUrl(subject, view.compare), request.signal) : Promise.resolve(null),
    ]);
    renderState(host, doc, openEvent);
    host.setAttribute('data-position', String(doc.position));
    renderDiff(compare, doc);
  } catch (error) {
    if ((error as Error).name === 'AbortError') return;
    fill(host, h('p', { class: 'error', role: 'alert' }, error instanceof ApiError ? error.message : String(error)));
  } finally {
    if (stateRequest === request) host.setAttribute('aria-busy', 'false');
  }
};

const renderDiff = (from: StateDoc | null, to: StateDoc): void => {
  if (!from) return showDiff(null, to, { stopComparing: () => undefined, openEvent });
  showDiff(from, to, {
    stopComparing: () => {
      view.compare = null;
      void refreshState();
      writeUrl(view);
    },
    openEvent,
  });
  writeUrl(view);
};

// ---- the event list (details open in place) ----------------------------------------------

const renderEventList = (): void => showEventList(events, timeline.currentWindow, view.at, (position) => setCursor(String(position)));
const markCursorInList = (): void => markCursor(view.at);

/** Shows one event in the list with its details open, panning the timeline to it if needed. */
const openEvent = (position: number): void => {
  const event = events.find((candidate) => candidate.position === position);
  if (!event) return;
  const window = timeline.currentWindow;
  if (event.at < window.from || event.at > window.to) {
    const span = window.to - window.from;
    timeline.setWindow({ from: event.at - span / 2, to: event.at + span / 2 });
    windowChanged(timeline.currentWindow);
  }
  let item = byId('events').querySelector<HTMLLIElement>(`li[data-position="${position}"]`);
  if (!item) {
    // Not among the first listed: narrow the window around it.
    timeline.setWindow({ from: event.at - 60_000, to: event.at + 60_000 });
    windowChanged(timeline.currentWindow);
    item = byId('events').querySelector<HTMLLIElement>(`li[data-position="${position}"]`);
  }
  const details = item?.querySelector('details');
  if (details) {
    details.open = true;
    details.scrollIntoView({ block: 'nearest' });
    details.querySelector('summary')?.focus();
  }
};

// ---- live ---------------------------------------------------------------------------------

const startLive = (): void => {
  if (live || !view.subject) return;
  const subject = view.subject;
  live = new LiveStream(
    subjectFilter(subject),
    Math.max(loadPosition, events[events.length - 1]?.position ?? 0),
    ({ data }) => {
      if (events.length > 0 && data.position <= events[events.length - 1].position) return;
      events.push(toStoryEvent(data));
      scheduleRefresh();
    },
    (text) => byId('story').setAttribute('data-live', text),
  );
};

/** New events arrive in bursts (a model release ends dozens of leases): redraw once per burst. */
const scheduleRefresh = (): void => {
  if (refreshTimer !== undefined) return;
  refreshTimer = window.setTimeout(() => {
    refreshTimer = undefined;
    if (view.subject) timeline.setLanes(buildLanes(events, laneLayout(view.subject)));
    timeline.render();
    const window = timeline.currentWindow;
    const last = events[events.length - 1]?.at ?? Date.now();
    if (last > window.to) timeline.setWindow({ from: window.from, to: last + (window.to - window.from) * 0.05 });
    status(`${events.length.toLocaleString()} events (live)`);
    renderEventList();
    if (view.at === null) {
      timeline.setCursor(Date.now());
      void refreshState();
    }
  }, 250);
};

// ---- start --------------------------------------------------------------------------------

const start = async (): Promise<void> => {
  const key = storedKey();
  if (key && (await signIn(key))) {
    showApp(true);
    if (view.subject) void openStory(view.subject);
  } else showApp(false);
};

void start();
