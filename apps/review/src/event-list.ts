import { byId, fill, formatTime, h } from './dom';
import type { StoryEvent } from './story';
import type { TimeWindow } from './timeline-view';

/** Events listed at once; beyond it the list says how many more the window holds. */
const LIST_LIMIT = 300;

/** The events in the timeline's window, each with its details ready to open in place. */
export const showEventList = (events: readonly StoryEvent[], window: TimeWindow, at: string | null, putCursorAt: (position: number) => void): void => {
  const inView = events.filter((event) => event.at >= window.from && event.at <= window.to);
  const shown = inView.slice(0, LIST_LIMIT);
  fill(
    byId('events'),
    shown.map((event) =>
      h(
        'li',
        { 'data-position': event.position, class: event.type === 'CommandRefused' ? 'refused' : '' },
        h(
          'details',
          {},
          h('summary', {}, `#${event.position} ${formatTime(event.at)} `, h('span', { class: 'type' }, event.type), ` · ${event.actor}: ${event.summary}`),
          h('button', { type: 'button', onclick: () => putCursorAt(event.position) }, 'Put the cursor here'),
          h('pre', {}, JSON.stringify({ stream: event.stream, recordedAt: event.recordedAt, actor: event.actor, data: event.data }, null, 2)),
        ),
      ),
    ),
    inView.length > shown.length
      ? h('li', { class: 'empty' }, `${(inView.length - shown.length).toLocaleString()} more events in this window: zoom in to list them`)
      : '',
    inView.length === 0 ? h('li', { class: 'empty' }, events.length === 0 ? 'No events.' : 'No events in this window: zoom out or pan.') : '',
  );
  markCursor(at);
};

/** Marks the event the cursor stands on (a position), if it is listed. */
export const markCursor = (at: string | null): void => {
  for (const item of byId('events').querySelectorAll('li.at-cursor')) item.classList.remove('at-cursor');
  if (at !== null && /^\d+$/.test(at))
    byId('events')
      .querySelector(`li[data-position="${Number(at)}"]`)
      ?.classList.add('at-cursor');
};
