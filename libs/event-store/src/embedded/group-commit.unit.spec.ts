import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deferredWork } from '../deferred-work';
import { type BatchOutcome, GroupCommit } from './group-commit';

/** A GroupCommit over numbers whose "transaction" records each batch; odd numbers are refused. */
const recordingGroupCommit = (maxBatch: number, failWhole?: Error) => {
  const batches: number[][] = [];
  const groupCommit = new GroupCommit<number, string>((requests) => {
    batches.push(requests);
    if (failWhole) throw failWhole;
    return requests.map((n): BatchOutcome<string> => (n % 2 === 0 ? { ok: true, value: `ok ${n}` } : { ok: false, error: new Error(`odd ${n}`) }));
  }, maxBatch);
  return { batches, groupCommit };
};

describe('GroupCommit', () => {
  it('commits everything submitted in one event-loop turn as one batch, and settles each request with its own outcome', async () => {
    const { batches, groupCommit } = recordingGroupCommit(100);
    const outcomes = await Promise.allSettled([0, 1, 2, 3].map((n) => groupCommit.submit(n)));
    assert.deepEqual(batches, [[0, 1, 2, 3]]);
    assert.deepEqual(
      outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : (outcome.reason as Error).message)),
      ['ok 0', 'odd 1', 'ok 2', 'odd 3'],
    );
    assert.deepEqual(groupCommit.stats(), { transactions: 1, appends: 4 });
  });

  it('settles nothing before the batch ran', async () => {
    const { batches, groupCommit } = recordingGroupCommit(100);
    let settled = false;
    const pending = groupCommit.submit(2).then(() => (settled = true));
    await Promise.resolve();
    assert.equal(settled, false);
    assert.deepEqual(batches, []);
    await pending;
    assert.equal(settled, true);
  });

  it("answers the batch's callers before telling the commit's observers, and tells every observer registered when it ended", async () => {
    const { groupCommit } = recordingGroupCommit(100);
    const seen: string[] = [];
    const stop = groupCommit.observeCommits(({ appends, appendSeconds }) => seen.push(`observer: ${appends} appends, ${appendSeconds.length} latencies`));
    await Promise.all([groupCommit.submit(0), groupCommit.submit(2)]);
    // The caller runs on, and even unsubscribes, before the observer hears of the commit it saw end.
    seen.push('caller');
    stop();
    // Only microtasks ran since the commit: the observers wait for the next hand-off to the writer, or the fallback.
    assert.deepEqual(seen, ['caller']);
    deferredWork.runNow();
    assert.deepEqual(seen, ['caller', 'observer: 2 appends, 2 latencies']);
    await groupCommit.submit(4);
    deferredWork.runNow();
    assert.equal(seen.length, 2, 'an observer gone before a commit ends is not told of it');
  });

  it('splits a large burst into batches of at most maxBatch, in submission order', async () => {
    const { batches, groupCommit } = recordingGroupCommit(3);
    await Promise.all([0, 2, 4, 6, 8, 10, 12].map((n) => groupCommit.submit(n)));
    assert.deepEqual(batches, [[0, 2, 4], [6, 8, 10], [12]]);
  });

  it('fails every request of a batch whose transaction failed', async () => {
    const { groupCommit } = recordingGroupCommit(10, new Error('disk full'));
    const outcomes = await Promise.allSettled([0, 2].map((n) => groupCommit.submit(n)));
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['rejected', 'rejected'],
    );
    assert.deepEqual(
      outcomes.map((outcome) => (outcome as PromiseRejectedResult).reason.message),
      ['disk full', 'disk full'],
    );
  });

  it('drain() waits for every submitted request, and resolves at once when idle', async () => {
    const { groupCommit } = recordingGroupCommit(1);
    await groupCommit.drain();
    const settled: number[] = [];
    [0, 2, 4].forEach((n) => void groupCommit.submit(n).then(() => settled.push(n)));
    await groupCommit.drain();
    await Promise.resolve();
    assert.deepEqual(settled, [0, 2, 4]);
  });
});
