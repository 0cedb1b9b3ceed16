import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { RecordedEvent, SqliteEventStore } from '@ledger/event-store';
import type { Projector } from './projector';
import type { ProjectorRunner } from './projector-runner';
import { withRunnerOnTempStore } from './testing/runner-on-temp-store.fixture';

/**
 * Issue 16: a projector that folds at most every `minPageIntervalMs` (the audit index)
 * must still answer read-your-writes at once: waitFor() hurries the paused fold.
 */
class PageCounter implements Projector {
  readonly name = 'page-counter';
  position = 0;
  readonly pages: number[] = [];
  onPage: () => void = () => undefined;
  applyPage(events: readonly RecordedEvent[]): void {
    this.pages.push(events.length);
    this.position = events[events.length - 1].position;
    this.onPage();
  }
  flush(): boolean {
    return true;
  }
}

const event = () => {
  const id = randomUUID();
  return { id, type: 'NodeRegistered', data: {}, metadata: { correlationId: id, causationId: null, actor: 't', requestId: null, schemaVersion: 1 } };
};

/** A PageCounter behind a runner that pauses an hour between pages (a reader that waited for the pause would time out instead), on a fresh store. */
const withPacedRunner = (test: (context: { store: SqliteEventStore; projector: PageCounter; runner: ProjectorRunner<PageCounter> }) => Promise<void>) => {
  const projector = new PageCounter();
  return withRunnerOnTempStore(projector, { minPageIntervalMs: 3_600_000 }, ({ store, runner }) => test({ store, projector, runner }));
};

describe('a projector runner with minPageIntervalMs', () => {
  it('folds the commits made during a pause as one page, and a reader waiting on a position does not wait for the pause', { timeout: 60_000 }, () =>
    withPacedRunner(async ({ store, projector, runner }) => {
      const first = await store.appendToStream('s-0', [event()], 'no_stream');
      assert.equal(await runner.waitFor(first.position, 30_000), true);
      let last = first.position;
      for (let i = 1; i <= 10; i++) last = (await store.appendToStream(`s-${i}`, [event()], 'no_stream')).position;
      assert.equal(await runner.waitFor(last, 30_000), true, 'the paused fold was not hurried');
      assert.equal(projector.position, last);
      assert.deepEqual(projector.pages, [1, 10]);
    }),
  );

  it('does not pause while a reader waits for a position past the page it just folded', { timeout: 60_000 }, () =>
    withPacedRunner(async ({ store, projector, runner }) => {
      // A reader whose position is not in the page being folded (its append commits after
      // the page was read): here it starts waiting from inside the fold of the first page.
      let waiting: Promise<boolean> | undefined;
      projector.onPage = () => {
        projector.onPage = () => undefined;
        waiting = runner.waitFor(projector.position + 1, 30_000);
      };
      await store.appendToStream('s-0', [event()], 'no_stream');
      while (!waiting) await new Promise((resolve) => setImmediate(resolve));
      await store.appendToStream('s-1', [event()], 'no_stream');
      assert.equal(await waiting, true, 'the fold paused with a reader waiting');
      assert.deepEqual(projector.pages, [1, 1]);
    }),
  );
});
