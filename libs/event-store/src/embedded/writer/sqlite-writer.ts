import type { AppendResult } from '../../event-store.port';
import type { AppendRequest } from '../append-request';
import type { BatchOutcome } from '../group-commit';

/** Where the store's write transactions run: one batch at a time, answered after COMMIT. */
export interface SqliteWriter {
  commit(requests: AppendRequest[], recordedAt: string): Promise<BatchOutcome<AppendResult>[]>;
  /** Closes the write connection; no commit may be pending. */
  close(): Promise<void>;
}
