/**
 * Where the review page's cursor stands in a story: the view keeps it as text (a log
 * position, digits, or a time), and these read it against the story's events.
 */
import type { StoryEvent } from './story';

/** The last event at or before a time: the cursor stands just after it. */
export const cursorForTime = (events: readonly StoryEvent[], time: number): string => {
  let chosen: StoryEvent | undefined;
  for (const event of events) {
    if (event.at > time) break;
    chosen = event;
  }
  return chosen ? String(chosen.position) : new Date(time).toISOString();
};

/** The time the cursor `at` stands at: a position's event's time, or the time it names; null for "now" or text that is neither. */
export const cursorTime = (events: readonly StoryEvent[], at: string | null): number | null => {
  if (at === null) return null;
  if (/^\d+$/.test(at)) {
    const position = Number(at);
    let time: number | null = null;
    for (const event of events) {
      if (event.position > position) break;
      time = event.at;
    }
    return time ?? events[0]?.at ?? null;
  }
  const time = Date.parse(at);
  return Number.isNaN(time) ? null : time;
};

/** Where a step from the cursor `at` lands: the next or previous event, the first or the last; null if there is none. */
export const stepFrom = (events: readonly StoryEvent[], at: string | null, direction: -1 | 1 | 'first' | 'last'): string | null => {
  if (events.length === 0) return null;
  if (direction === 'first') return String(events[0].position);
  if (direction === 'last') return String(events[events.length - 1].position);
  const current = at !== null && /^\d+$/.test(at) ? Number(at) : at === null ? Infinity : Number(cursorForTime(events, cursorTime(events, at) ?? 0)) || 0;
  const index = direction === 1 ? events.findIndex((event) => event.position > current) : findLastIndex(events, (event) => event.position < current);
  return index >= 0 ? String(events[index].position) : null;
};

const findLastIndex = <T>(list: readonly T[], test: (item: T) => boolean): number => {
  for (let index = list.length - 1; index >= 0; index--) if (test(list[index])) return index;
  return -1;
};
