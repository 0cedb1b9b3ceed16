import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter, MAX_LINE_BYTES } from './line-splitter';

const split = (chunks: Buffer[]): string[] => {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line));
  chunks.forEach((chunk) => splitter.push(chunk));
  splitter.end();
  return lines;
};

describe('LineSplitter', () => {
  it('splits on newlines across chunk boundaries, a multi-byte character cut between chunks included', () => {
    const bytes = Buffer.from('lease 10.0.0.1 {\r\n  client-hostname "ü";\n}\nlast');
    for (let cut = 0; cut <= bytes.length; cut++) {
      assert.deepEqual(split([bytes.subarray(0, cut), bytes.subarray(cut)]), ['lease 10.0.0.1 {\r', '  client-hostname "ü";', '}', 'last'], `cut at ${cut}`);
    }
  });

  it('keeps at most MAX_LINE_BYTES of a line, however it arrives (issue 10, item 3)', () => {
    const long = Buffer.alloc(MAX_LINE_BYTES * 3, 0x78);
    assert.deepEqual(split([long, Buffer.from('\nnext')]).map((line) => line.length), [MAX_LINE_BYTES, 4]);
    assert.deepEqual(split([Buffer.concat([long, Buffer.from('\nnext')])]).map((line) => line.length), [MAX_LINE_BYTES, 4]);
  });
});
