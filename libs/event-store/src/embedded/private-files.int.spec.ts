import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensurePrivateDirectory, openToOthers } from './private-files';
import { SqliteEventStore } from './sqlite-event-store';
import { tempStoreFile, type TempStoreFile } from './testing/temp-store-file';
import { testEvent } from './testing/test-events';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('private data files', () => {
  let temp: TempStoreFile;
  let previousUmask: number;
  before(async () => {
    previousUmask = process.umask(0o022);
    temp = await tempStoreFile('private');
  });
  after(async () => {
    process.umask(previousUmask);
    await temp.remove();
  });

  it('a new store file and the -wal and -shm SQLite makes beside it are 0600 under umask 022', async () => {
    const store = await SqliteEventStore.open({ file: temp.file });
    try {
      await store.appendToStream('node-private', [testEvent()], 'no_stream');
      for (const file of [temp.file, `${temp.file}-wal`, `${temp.file}-shm`]) {
        assert.ok(existsSync(file), file);
        assert.equal(modeOf(file), '600', file);
      }
    } finally {
      await store.close();
    }
  });

  it('creates missing directories 0700 and leaves an existing one as it is', () => {
    const nested = join(dirname(temp.file), 'a', 'b');
    ensurePrivateDirectory(nested);
    assert.equal(modeOf(nested), '700');
    assert.equal(modeOf(dirname(nested)), '700');
    const open = join(dirname(temp.file), 'open');
    mkdirSync(open, { mode: 0o755 });
    ensurePrivateDirectory(open);
    assert.equal(modeOf(open), '755');
  });

  it('names the directories, and the files directly in them, open to group or others', () => {
    const dir = join(dirname(temp.file), 'found');
    mkdirSync(dir, { mode: 0o750 });
    writeFileSync(join(dir, 'private'), '', { mode: 0o600 });
    writeFileSync(join(dir, 'group-readable'), '', { mode: 0o640 });
    chmodSync(join(dir, 'group-readable'), 0o640);
    assert.deepEqual(openToOthers([dir, dir, join(dir, 'missing')]), [
      { path: dir, mode: '0750' },
      { path: join(dir, 'group-readable'), mode: '0640' },
    ]);
  });
});
