import type { WireError } from '@ledger/event-store';

/** What the checkpoint thread needs: the read-model file, how often it looks at its WAL, and how big a WAL it copies back. */
export interface WalCheckpointSettings {
  file: string;
  pollMs: number;
  /** Copy back once the WAL holds this many pages not in the file yet (SQLite's wal_autocheckpoint). */
  thresholdPages: number;
}

/** One copy of the WAL back into the file: how long it took, and the WAL's frames then. */
export interface WalCheckpointDone {
  ms: number;
  /** Frames in the WAL when it ran (SQLite's `log`). */
  walFrames: number;
  /** Of those, how many are now in the file (SQLite's `checkpointed`): all of them unless a reader held some back. */
  copiedFrames: number;
}

/** Main thread to the checkpoint thread. */
export type ToWalCheckpointThread = { kind: 'stop' };

/** The checkpoint thread to the main thread. */
export type FromWalCheckpointThread =
  | { kind: 'ready' }
  | { kind: 'open-failed'; error: WireError }
  | ({ kind: 'checkpointed' } & WalCheckpointDone)
  | { kind: 'failed'; error: WireError }
  | { kind: 'stopped' };
