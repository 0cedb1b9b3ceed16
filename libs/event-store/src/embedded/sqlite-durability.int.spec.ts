import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import type { RecordedEvent } from '../envelope';
import { SqliteEventStore } from './sqlite-event-store';
import type { SqliteSynchronous } from './sqlite-store-options';
import { type TempStoreFile, tempStoreFile } from './testing/temp-store-file';
import { testEvent, testEvents } from './testing/test-events';

const readEverything = async (store: SqliteEventStore): Promise<RecordedEvent[]> => {
  const events: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll({ fromPosition: events.at(-1)?.position ?? 0, maxCount: 1000 });
    if (page.length === 0) return events;
    events.push(...page);
  }
};

interface Acknowledged {
  id: string;
  position: number;
}

/** Runs the crash appender, kills it with SIGKILL once `acks` appends were acknowledged. */
const appendUntilKilled = async (file: string, synchronous: SqliteSynchronous, acks: number): Promise<Acknowledged[]> => {
  const child = spawn(process.execPath, [join(__dirname, 'testing', 'crash-appender.fixture.js'), file, synchronous], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  const acknowledged: Acknowledged[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    acknowledged.push(JSON.parse(line) as Acknowledged);
    if (acknowledged.length === acks) child.kill('SIGKILL');
  }
  assert.equal(await exited, 'SIGKILL', `the appender was killed, not ended (stderr: ${stderr})`);
  return acknowledged;
};

describe('embedded store durability', () => {
  let temp: TempStoreFile;
  before(async () => {
    temp = await tempStoreFile('durability');
  });
  after(async () => {
    await temp.remove();
  });

  it('keeps every event across close and reopen', async () => {
    const store = await SqliteEventStore.open({ file: temp.file });
    await store.appendToStream('node-a', testEvents(3), 'no_stream');
    await store.appendToStream('node-b', [testEvent({ nested: { ok: true } })], 'no_stream');
    const before = await readEverything(store);
    await store.close();

    const reopened = await SqliteEventStore.open({ file: temp.file });
    try {
      assert.deepEqual(await readEverything(reopened), before);
      const next = await reopened.appendToStream('node-a', [testEvent()], 2);
      assert.equal(next.nextExpectedRevision, 3);
      assert.ok(next.position > before.at(-1)!.position);
    } finally {
      await reopened.close();
    }
  });

  for (const synchronous of ['FULL', 'NORMAL'] as const) {
    it(`(synchronous=${synchronous}) a process killed with SIGKILL mid-append loses no acknowledged event`, async () => {
      const crash = await tempStoreFile(`crash-${synchronous}`);
      try {
        const acknowledged = await appendUntilKilled(crash.file, synchronous, 200);
        const store = await SqliteEventStore.open({ file: crash.file });
        try {
          const stored = new Map((await readEverything(store)).map((event) => [event.id, event.position]));
          for (const ack of acknowledged) assert.equal(stored.get(ack.id), ack.position, `acknowledged event ${ack.id}`);
          assert.ok(stored.size >= acknowledged.length);
          for (let index = 0; index < 8; index++) {
            const stream = await store.readStream(`crash-${index}`);
            assert.deepEqual(
              stream.map((event) => event.revision),
              stream.map((_, revision) => revision),
            );
          }
          await store.appendToStream('crash-0', [testEvent()], 'stream_exists');
        } finally {
          await store.close();
        }
      } finally {
        await crash.remove();
      }
    });
  }
});
