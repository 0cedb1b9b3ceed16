import type { Subject } from './story';

/** Everything a shared link reproduces: what is shown, the cursor, the zoom, the diff's other moment. */
export interface ViewState {
  subject: Subject | null;
  /** A global position (digits) or an ISO time; null: now, following live. */
  at: string | null;
  from: number | null;
  to: number | null;
  /** The diff's other moment (a position), if one is pinned. */
  compare: string | null;
}

export const readUrl = (location: Location): ViewState => {
  const params = new URLSearchParams(location.search);
  const node = params.get('node');
  const model = params.get('model');
  const ip = params.get('ip');
  const split = model?.indexOf('/') ?? -1;
  const subject: Subject | null = node
    ? { kind: 'node', nodeId: node }
    : model && split > 0
      ? { kind: 'model', controller: model.slice(0, split), model: model.slice(split + 1) }
      : ip
        ? { kind: 'address', ip }
        : null;
  const number = (name: string) => {
    const value = Number(params.get(name));
    return params.has(name) && Number.isFinite(value) ? value : null;
  };
  return { subject, at: params.get('at'), from: number('from'), to: number('to'), compare: params.get('compare') };
};

export const writeUrl = (view: ViewState): void => {
  const params = new URLSearchParams();
  const subject = view.subject;
  if (subject?.kind === 'node') params.set('node', subject.nodeId);
  if (subject?.kind === 'model') params.set('model', `${subject.controller}/${subject.model}`);
  if (subject?.kind === 'address') params.set('ip', subject.ip);
  if (view.at !== null) params.set('at', view.at);
  if (view.from !== null && view.to !== null) {
    params.set('from', String(Math.round(view.from)));
    params.set('to', String(Math.round(view.to)));
  }
  if (view.compare !== null) params.set('compare', view.compare);
  const search = params.toString();
  history.replaceState(null, '', `${location.pathname}${search ? `?${search}` : ''}`);
};
