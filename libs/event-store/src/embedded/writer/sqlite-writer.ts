import type { AppendRequest } from '../append-request';
import type { WrittenBatch } from '../sqlite-batch-writer';

/** Where the store's write transactions run: one batch at a time, answered after COMMIT. */
export interface SqliteWriter {
  commit(requests: AppendRequest[], clockTime: string): Promise<WrittenBatch>;
  /** Closes the write connection; no commit may be pending. */
  close(): Promise<void>;
}
