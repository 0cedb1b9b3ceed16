import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { SqliteEventStore } from './sqlite-event-store';
import { tempStoreFile } from './testing/temp-store-file';
import { testEvent } from './testing/test-events';

const ATTEMPTS_PER_PROCESS = 15;

/** Starts a race appender and resolves once it is ready to go. */
const startRacer = async (file: string, stream: string) => {
  const child = spawn(process.execPath, [join(__dirname, 'testing', 'race-appender.fixture.js'), file, stream, String(ATTEMPTS_PER_PROCESS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  assert.equal((await lines.next()).value, 'ready');
  return {
    go: () => child.stdin.write('go\n'),
    result: async () => JSON.parse((await lines.next()).value as string) as { accepted: number; conflicts: number },
  };
};

describe('embedded store shared by two processes', () => {
  it('lets exactly one append win when two processes race on one stream with the same expected revision', async () => {
    const temp = await tempStoreFile('two-processes');
    try {
      const store = await SqliteEventStore.open({ file: temp.file });
      await store.appendToStream('node-raced', [testEvent()], 'no_stream');

      const racers = await Promise.all([startRacer(temp.file, 'node-raced'), startRacer(temp.file, 'node-raced')]);
      racers.forEach((racer) => racer.go());
      const results = await Promise.all(racers.map((racer) => racer.result()));

      const accepted = results.reduce((sum, result) => sum + result.accepted, 0);
      const conflicts = results.reduce((sum, result) => sum + result.conflicts, 0);
      assert.equal(accepted, 1, `one winner across both processes: ${JSON.stringify(results)}`);
      assert.equal(conflicts, 2 * ATTEMPTS_PER_PROCESS - 1);
      assert.equal((await store.readStream('node-raced')).length, 3);
      await store.close();
    } finally {
      await temp.remove();
    }
  });
});
