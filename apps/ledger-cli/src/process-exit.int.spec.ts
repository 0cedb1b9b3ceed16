import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const script = (body: string) => [
  '-e',
  `const { exitAfterFlush, exitQuietlyOnClosedPipe } = require(${JSON.stringify(require.resolve('./process-exit'))}); ${body}`,
];

describe('how the CLI exits', () => {
  it('delivers every byte of a large report before exiting with its code', () => {
    const result = spawnSync(process.execPath, script("process.stdout.write('x'.repeat(3_000_000)); exitAfterFlush(3);"), {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    assert.equal(result.status, 3);
    assert.equal(result.stdout.length, 3_000_000);
  });

  it('treats a reader that stops early as a normal end, without a stack trace', () => {
    const result = spawnSync(
      'bash',
      [
        '-c',
        `"${process.execPath}" ${script("exitQuietlyOnClosedPipe(); for (let i = 0; i < 200; i++) process.stdout.write('y'.repeat(65536)); exitAfterFlush(0);")
          .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
          .join(' ')} | head -c 10 > /dev/null; echo "\${PIPESTATUS[0]}"`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(result.stdout.trim(), '0');
    assert.doesNotMatch(result.stderr, /EPIPE|Error/);
  });
});
