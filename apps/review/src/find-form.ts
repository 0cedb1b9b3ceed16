import { ApiError } from './api';
import { byId, fill, h } from './dom';
import { find, type FindKind, type Hit } from './find';

/** The find box: what the incident report gives (a token, a node, an IP, a MAC, a model, a time) to the stories that match; `open` shows the one chosen. */
export const wireFindForm = (open: (hit: Hit) => void): void => {
  const findKind = byId<HTMLSelectElement>('find-kind');
  findKind.addEventListener('change', () => (byId('find-until').hidden = findKind.value !== 'time'));

  byId<HTMLFormElement>('find-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const results = byId('find-results');
    fill(results, h('p', {}, 'Searching…'));
    try {
      const hits = await find(findKind.value as FindKind, byId<HTMLInputElement>('find-text').value, byId<HTMLInputElement>('find-until').value || undefined);
      if (hits.length === 0) return fill(results, h('p', { class: 'empty' }, 'Nothing in the ledger matches.'));
      fill(
        results,
        h(
          'ul',
          { 'data-testid': 'hits' },
          hits.map((hit) => h('li', {}, h('button', { type: 'button', class: 'link', onclick: () => open(hit) }, hit.label))),
        ),
      );
    } catch (error) {
      fill(results, h('p', { class: 'error', role: 'alert' }, error instanceof ApiError ? error.message : (error as Error).message));
    }
  });
};
