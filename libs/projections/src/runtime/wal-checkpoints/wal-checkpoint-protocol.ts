import type { WireError } from '@ledger/event-store';

/** What the checkpoint thread needs: the read-model file, and how often it copies the WAL back. */
export interface WalCheckpointSettings {
  file: string;
  intervalMs: number;
}

/** One copy of the WAL back into the file that found new frames: how long it took, and the WAL's frames then. */
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
