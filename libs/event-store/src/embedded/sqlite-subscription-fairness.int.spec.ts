import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteEventStore } from './sqlite-event-store';
import { tempStoreFile } from './testing/temp-store-file';
import { testEvents } from './testing/test-events';

describe('a subscription catching up on a long log', () => {
  it('lets the event loop run between pages, so a server keeps answering while a consumer catches up', async () => {
    const file = await tempStoreFile('fairness');
    const store = await SqliteEventStore.open({ file: file.file });
    try {
      for (let batch = 0; batch < 20; batch++) await store.appendToStream(`s-${batch}`, testEvents(250), 'no_stream');
      let timerFiredAt: number | null = null;
      setTimeout(() => (timerFiredAt = consumed), 0);
      let consumed = 0;
      const subscription = store.subscribeToAll({ fromPosition: 0 });
      for await (const event of subscription) {
        consumed++;
        if (event.position >= 5_000) break;
      }
      assert.equal(consumed, 5_000);
      assert.notEqual(timerFiredAt, null, 'a timer never ran while 5,000 events were handed out');
      assert.ok(timerFiredAt! < 1_000, `the timer waited until ${timerFiredAt} events had been handed out`);
    } finally {
      await store.close();
      await file.remove();
    }
  });
});
