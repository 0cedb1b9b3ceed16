import { s } from './dom';
import type { Lane, LaneGroup } from './lanes';

const LABEL_WIDTH = 200;
/** About how many characters of a 12px label fit in a pixel width (the rest is clipped, whole in its tooltip). */
const charsIn = (pixels: number): number => Math.floor(pixels / 6.5);
const LANE_HEIGHT = 26;
const AXIS_HEIGHT = 26;
/** A group's heading row (the model view's node name). */
const HEADING_HEIGHT = 22;
/** Lanes under a heading are indented, so the heading reads as theirs. */
const INDENT = 12;
/** Zoom limits: one second to about two years across the plot. */
export const MIN_SPAN = 1_000;
export const MAX_SPAN = 2 * 365 * 86_400_000;

const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 2592000, 7776000, 31536000].map(
  (seconds) => seconds * 1000,
);

export interface TimeWindow {
  from: number;
  to: number;
}

export interface TimelineCallbacks {
  /** The reviewer put the cursor at a time (click, drag) or stepped it by keyboard. */
  cursorAt(time: number): void;
  step(direction: -1 | 1 | 'first' | 'last'): void;
  openEvent(position: number): void;
  windowChanged(window: TimeWindow): void;
}

/**
 * The timeline: lanes on a zoomable time axis, drawn in SVG with no library (a few
 * thousand rectangles is what SVG is good at), under a heading per group when grouped
 * (the model view's machines). Drag to pan, wheel or +/- to zoom, click or drag the
 * cursor to put it, arrows to step it from event to event.
 */
export class TimelineView {
  private groups: LaneGroup[] = [];
  private window: TimeWindow = { from: 0, to: 1 };
  private cursor: number | null = null;
  private readonly svg: SVGSVGElement;
  private drag: { x: number; window: TimeWindow; moved: boolean; cursor: boolean } | null = null;
  private frame = 0;

  constructor(
    private readonly host: HTMLElement,
    private readonly callbacks: TimelineCallbacks,
  ) {
    this.svg = s('svg', { class: 'timeline-svg', role: 'img', 'aria-label': 'timeline' }) as SVGSVGElement;
    host.append(this.svg);
    host.addEventListener('pointerdown', (event) => this.pointerDown(event));
    host.addEventListener('pointermove', (event) => this.pointerMove(event));
    host.addEventListener('pointerup', (event) => this.pointerUp(event));
    host.addEventListener('wheel', (event) => this.wheel(event), { passive: false });
    host.addEventListener('keydown', (event) => this.key(event));
    new ResizeObserver(() => this.render()).observe(host);
  }

  get currentWindow(): TimeWindow {
    return this.window;
  }

  /** New lanes; drawn with the next window or cursor change (or `render`). */
  setLanes(groups: LaneGroup[]): void {
    this.groups = groups;
    const headings = groups.map((group) => group.label).filter((label) => label !== null);
    this.svg.setAttribute('aria-label', headings.length ? `timeline, lanes grouped by node: ${headings.join(', ')}` : 'timeline');
  }

  setWindow(window: TimeWindow): void {
    const span = Math.min(MAX_SPAN, Math.max(MIN_SPAN, window.to - window.from));
    const middle = (window.from + window.to) / 2;
    this.window = { from: Math.round(middle - span / 2), to: Math.round(middle + span / 2) };
    this.render();
  }

  setCursor(time: number | null): void {
    this.cursor = time;
    this.render();
  }

  zoom(factor: number, around = (this.window.from + this.window.to) / 2): void {
    const span = Math.min(MAX_SPAN, Math.max(MIN_SPAN, (this.window.to - this.window.from) * factor));
    const ratio = (around - this.window.from) / (this.window.to - this.window.from);
    this.setWindow({ from: around - span * ratio, to: around - span * ratio + span });
    this.callbacks.windowChanged(this.window);
  }

  pan(fraction: number): void {
    const shift = (this.window.to - this.window.from) * fraction;
    this.setWindow({ from: this.window.from + shift, to: this.window.to + shift });
    this.callbacks.windowChanged(this.window);
  }

  private get plotWidth(): number {
    return Math.max(100, this.host.clientWidth - LABEL_WIDTH - 8);
  }

  private x(time: number): number {
    return LABEL_WIDTH + ((time - this.window.from) / (this.window.to - this.window.from)) * this.plotWidth;
  }

  private timeAt(clientX: number): number {
    const left = this.host.getBoundingClientRect().left;
    return this.window.from + ((clientX - left - LABEL_WIDTH) / this.plotWidth) * (this.window.to - this.window.from);
  }

  /** Draws at the next frame: several changes in one turn (lanes, window, cursor) draw once. */
  render(): void {
    if (this.frame !== 0) return;
    // Busy until the frame draws: what is on screen (the cursor, the bars) is not yet what was asked.
    this.svg.setAttribute('aria-busy', 'true');
    this.frame = requestAnimationFrame(() => this.draw());
  }

  private draw(): void {
    this.frame = 0;
    const width = LABEL_WIDTH + this.plotWidth + 8;
    const rows = this.groups.reduce((sum, group) => sum + (group.label === null ? 0 : HEADING_HEIGHT) + group.lanes.length * LANE_HEIGHT, 0);
    const height = AXIS_HEIGHT + Math.max(LANE_HEIGHT, rows) + 4;
    this.svg.setAttribute('width', String(width));
    this.svg.setAttribute('height', String(height));
    this.svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const parts: SVGElement[] = [this.axis(height)];
    let y = AXIS_HEIGHT;
    for (const group of this.groups) {
      const item = s('g', { class: 'lane-group', 'data-node': group.nodeId ?? undefined });
      if (group.label !== null) {
        item.append(
          s('rect', { x: 0, y, width, height: HEADING_HEIGHT, class: 'group-bg' }),
          s('text', { x: 6, y: y + 15, class: 'group-label' }, s('title', {}, group.label), clip(group.label, charsIn(width - 12))),
        );
        y += HEADING_HEIGHT;
      }
      for (const lane of group.lanes) {
        item.append(this.lane(lane, y, group.label === null ? 0 : INDENT));
        y += LANE_HEIGHT;
      }
      parts.push(item);
    }
    if (this.cursor !== null && this.cursor >= this.window.from && this.cursor <= this.window.to) {
      const x = this.x(this.cursor);
      parts.push(
        s(
          'g',
          { class: 'cursor' },
          s('line', { x1: x, x2: x, y1: 0, y2: height }),
          s('rect', { x: x - 5, y: 0, width: 10, height: 12, class: 'cursor-handle' }),
        ),
      );
    }
    this.svg.replaceChildren(...parts);
    this.svg.setAttribute('aria-busy', 'false');
  }

  private axis(height: number): SVGElement {
    const span = this.window.to - this.window.from;
    const step = STEPS.find((candidate) => (candidate / span) * this.plotWidth >= 90) ?? STEPS[STEPS.length - 1];
    const group = s('g', { class: 'axis' });
    for (let tick = Math.ceil(this.window.from / step) * step; tick <= this.window.to; tick += step) {
      const x = this.x(tick);
      group.append(s('line', { x1: x, x2: x, y1: AXIS_HEIGHT - 6, y2: height, class: 'gridline' }), s('text', { x: x + 3, y: 14 }, tickLabel(tick, step)));
    }
    return group;
  }

  private lane(lane: Lane, y: number, indent: number): SVGElement {
    const group = s('g', { class: 'lane', 'data-lane': lane.key });
    group.append(s('rect', { x: 0, y, width: LABEL_WIDTH + this.plotWidth, height: LANE_HEIGHT, class: 'lane-bg' }));
    group.append(
      s('text', { x: 6 + indent, y: y + 17, class: 'lane-label' }, s('title', {}, lane.label), clip(lane.label, charsIn(LABEL_WIDTH - 12 - indent))),
    );
    const right = this.window.to;
    // Bars that would share a pixel with the one before are not drawn: zoomed out on a
    // long history, a lane costs at most one element per pixel column.
    let drawnUpTo = -1;
    for (const bar of lane.bars) {
      const end = bar.end ?? Number.POSITIVE_INFINITY;
      if (end < this.window.from || bar.start > right) continue;
      const x1 = Math.max(LABEL_WIDTH, this.x(bar.start));
      const x2 = Math.min(LABEL_WIDTH + this.plotWidth, bar.end === null ? LABEL_WIDTH + this.plotWidth : this.x(bar.end));
      if (x2 < drawnUpTo + 1) continue;
      drawnUpTo = Math.max(x2, x1 + 2);
      const w = Math.max(2, x2 - x1);
      const item = s(
        'g',
        { class: `bar tone-${bar.tone}`, 'data-start': bar.startPosition, onclick: () => this.callbacks.openEvent(bar.startPosition) },
        s('title', {}, bar.title),
        s('rect', { x: x1, y: y + 4, width: w, height: LANE_HEIGHT - 8, rx: 3 }),
      );
      if (w > 40) item.append(s('text', { x: x1 + 4, y: y + 17, class: 'bar-label' }, clip(bar.label, Math.floor(w / 7))));
      group.append(item);
    }
    // Marks thin out to one per pixel column: a huge history still draws at once.
    const columns = new Set<number>();
    for (const mark of lane.marks) {
      if (mark.at < this.window.from || mark.at > right) continue;
      const x = Math.round(this.x(mark.at));
      if (columns.has(x)) continue;
      columns.add(x);
      const shape =
        mark.kind === 'refusal' ? s('path', { d: `M${x} ${y + 4} l6 9 l-6 9 l-6 -9 z` }) : s('line', { x1: x, x2: x, y1: y + 5, y2: y + LANE_HEIGHT - 5 });
      group.append(
        s(
          'g',
          { class: `mark mark-${mark.kind}`, 'data-position': mark.position, onclick: () => this.callbacks.openEvent(mark.position) },
          s('title', {}, mark.label),
          shape,
        ),
      );
    }
    return group;
  }

  private pointerDown(event: PointerEvent): void {
    if (event.button !== 0) return;
    const cursorX = this.cursor === null ? null : this.x(this.cursor);
    const localX = event.clientX - this.host.getBoundingClientRect().left;
    this.drag = { x: event.clientX, window: { ...this.window }, moved: false, cursor: cursorX !== null && Math.abs(localX - cursorX) <= 6 };
    this.host.setPointerCapture?.(event.pointerId);
  }

  private pointerMove(event: PointerEvent): void {
    if (!this.drag) return;
    const dx = event.clientX - this.drag.x;
    if (Math.abs(dx) > 3) this.drag.moved = true;
    if (!this.drag.moved) return;
    if (this.drag.cursor) {
      this.setCursor(this.timeAt(event.clientX));
      return;
    }
    const shift = (dx / this.plotWidth) * (this.drag.window.to - this.drag.window.from);
    this.setWindow({ from: this.drag.window.from - shift, to: this.drag.window.to - shift });
  }

  private pointerUp(event: PointerEvent): void {
    const drag = this.drag;
    this.drag = null;
    if (!drag) return;
    const localX = event.clientX - this.host.getBoundingClientRect().left;
    if (drag.cursor || (!drag.moved && localX > LABEL_WIDTH && !(event.target as Element).closest('.bar, .mark')))
      this.callbacks.cursorAt(this.timeAt(event.clientX));
    else if (drag.moved) this.callbacks.windowChanged(this.window);
  }

  private wheel(event: WheelEvent): void {
    event.preventDefault();
    this.zoom(event.deltaY > 0 ? 1.25 : 0.8, this.timeAt(event.clientX));
  }

  private key(event: KeyboardEvent): void {
    const keys: Record<string, () => void> = {
      ArrowLeft: () => (event.shiftKey ? this.pan(-0.2) : this.callbacks.step(-1)),
      ArrowRight: () => (event.shiftKey ? this.pan(0.2) : this.callbacks.step(1)),
      Home: () => this.callbacks.step('first'),
      End: () => this.callbacks.step('last'),
      '+': () => this.zoom(0.5, this.cursor ?? undefined),
      '=': () => this.zoom(0.5, this.cursor ?? undefined),
      '-': () => this.zoom(2, this.cursor ?? undefined),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }
}

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text);

const tickLabel = (time: number, step: number): string => {
  const iso = new Date(time).toISOString();
  if (step < 60_000) return iso.slice(11, 19);
  if (step < 86_400_000) return iso.slice(5, 16).replace('T', ' ');
  return iso.slice(0, 10);
};
