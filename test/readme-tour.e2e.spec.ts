/**
 * The README's five-minute tour, run as a new user would run it: its `sh tour` blocks, in
 * order, in bash, in a directory whose `data/` is a fresh ledger's data directory (so
 * `cat data/operator.key` reads the key it wrote). The only change made to the text is the
 * port: the ledger here listens on a free one instead of 3000. The front door cannot rot:
 * a command that fails, or an answer that changes, fails this test.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LedgerProcess } from '@ledger/testing';
import { answerPattern, tourScript, tourSteps } from './support/readme-tour';

const README = resolve(__dirname, '../../README.md');

describe("the README's tour", () => {
  it('reads as a parseable tour: commands, each answer after its command', () => {
    const steps = tourSteps(readFileSync(README, 'utf8'));
    assert.ok(steps.length >= 10, `found only ${steps.length} commands in the tour`);
    assert.ok(steps.filter((step) => step.expected.length > 0).length >= 8);
    assert.match(steps[0].command, /operator\.key/, 'the tour starts by reading the key the ledger wrote');
    const enlist = steps.findIndex((step) => step.command.includes('/v1/nodes '));
    const acquire = steps.findIndex((step) => step.command.includes('/v1/allocations '));
    assert.ok(enlist >= 0 && enlist < acquire, 'node-7 is enlisted before it is acquired');
  });

  it('runs as written on a fresh ledger and every answer is the one shown', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ledger-readme-tour-'));
    const ledger = await LedgerProcess.start({ dataDir: join(home, 'data') });
    try {
      const steps = tourSteps(readFileSync(README, 'utf8'));
      const output = (step: number) => `step-${step}.out`;
      const script = tourScript(steps, output).replaceAll('localhost:3000', `127.0.0.1:${ledger.port}`);
      const run = spawnSync('bash', ['-c', script], { cwd: home, encoding: 'utf8', timeout: 120_000 });
      assert.equal(run.status, 0, `the tour stopped: ${run.stderr}\n${run.stdout}`);
      steps.forEach((step, index) => {
        if (step.expected.length === 0) return;
        const printed = readFileSync(join(home, output(index)), 'utf8')
          .trimEnd()
          .split('\n');
        assert.equal(printed.length, step.expected.length, `${step.command}\nprinted:\n${printed.join('\n')}`);
        step.expected.forEach((expected, line) => assert.match(printed[line], answerPattern(expected), step.command));
      });
    } finally {
      await ledger.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
