import { byId, fill, h } from './dom';
import { diffStates } from './diff';
import type { StateDoc } from './state-doc';

export interface DiffActions {
  stopComparing(): void;
  openEvent(position: number): void;
}

/** The diff between the pinned moment and the cursor, each change linked to the event that made it; hidden when nothing is pinned. */
export const showDiff = (from: StateDoc | null, to: StateDoc, actions: DiffActions): void => {
  const section = byId('diff');
  section.hidden = from === null;
  if (!from) return;
  const changes = diffStates(from, to);
  fill(
    byId('diff-body'),
    h(
      'p',
      {},
      `From position ${from.position} (${from.at}) to the cursor, position ${to.position} (${to.at}): `,
      h('button', { type: 'button', class: 'link', onclick: () => actions.stopComparing() }, 'stop comparing'),
    ),
    changes.length === 0
      ? h('p', { class: 'empty' }, 'Nothing changed between these two moments.')
      : h(
          'ul',
          { 'data-testid': 'diff-list' },
          changes.map((change) =>
            h(
              'li',
              { 'data-kind': change.kind },
              h('strong', {}, `${change.kind}: `),
              `${change.what}: ${change.detail} `,
              change.position
                ? h('button', { type: 'button', class: 'link', onclick: () => actions.openEvent(change.position!) }, `event #${change.position}`)
                : '',
            ),
          ),
        ),
  );
};
