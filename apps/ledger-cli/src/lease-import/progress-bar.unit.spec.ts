import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, ProgressBar } from './progress-bar';

describe('the progress bar', () => {
  it('shows how far, how fast and how long still', () => {
    let now = 0;
    const bar = new ProgressBar({ label: 'reading', total: 4 * 1_048_576, unit: 'bytes', write: () => {}, now: () => now, width: 10 });
    now = 2_000;
    assert.equal(bar.line(1_048_576, 5_000), 'reading  [###-------]  25%  1.0 MB/4.0 MB  2,500 records/s  ETA 6s');
    const posting = new ProgressBar({ label: 'posting', total: 3_000, unit: 'records', write: () => {}, now: () => now, width: 10 });
    now = 3_000;
    assert.equal(posting.line(3_000, 3_000), 'posting  [##########] 100%  3,000/3,000  3,000 records/s  ETA 0s');
  });

  it('redraws one line in place, at most every interval, and clears it at the end', () => {
    let now = 0;
    const written: string[] = [];
    const bar = new ProgressBar({ label: 'posting', total: 100, unit: 'records', write: (text) => written.push(text), now: () => now, intervalMs: 100 });
    bar.update(10, 10);
    now = 50;
    bar.update(20, 20);
    now = 150;
    bar.update(30, 30);
    bar.update(40, 40, true);
    bar.clear();
    assert.equal(written.length, 4);
    assert.ok(written.slice(0, 3).every((text) => text.startsWith('\r\x1b[K') && !text.includes('\n')));
    assert.match(written[1], / 30%/);
    assert.equal(written[3], '\r\x1b[K');
  });

  it('writes nothing to clear when it never drew', () => {
    const written: string[] = [];
    new ProgressBar({ label: 'x', total: 1, unit: 'records', write: (text) => written.push(text) }).clear();
    assert.deepEqual(written, []);
  });

  it('spells durations briefly', () => {
    assert.deepEqual(
      [formatDuration(0.2), formatDuration(59), formatDuration(61), formatDuration(3_725), formatDuration(Infinity)],
      ['1s', '59s', '1m01s', '1h02m', '?'],
    );
  });
});
