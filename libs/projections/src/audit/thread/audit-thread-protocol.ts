import type { WireError } from '@ledger/event-store';
import type { RebuildProgress, RebuildResult } from '../../runtime/projector-runner';
import type { ThreadPriority } from './background-priority';

/** What the ledger hands the live audit index's thread: where to read, where to write, how often. */
export interface AuditThreadSettings {
  /** The embedded store's file, opened read-only (through the ledger's upcasters). */
  eventFile: string;
  readModelFile: string;
  /** Fold live pages at most this often. */
  minPageIntervalMs: number;
  /** How often the thread looks at the file for commits it was not told of. */
  pollIntervalMs: number;
  /** How many nice steps below the process the thread runs: 0 leaves it at the process's priority. */
  nice: number;
}

/** A resubscription, as it crosses the thread boundary (SubscriptionRestart, its error flattened). */
export interface WireRestart {
  subscriber: string;
  reason: 'error' | 'ended';
  error?: WireError;
  attempt: number;
  delayMs: number;
  fromPosition: number;
}

export type ToAuditThread =
  /** The ledger committed: read now rather than at the next poll. */
  | { kind: 'poke' }
  /** Someone waits for `position` (a query's minPosition): read and fold now, no pause. */
  | { kind: 'hurry'; position: number; timeoutMs: number }
  | { kind: 'rebuild' }
  | { kind: 'stop' };

export type FromAuditThread =
  | { kind: 'ready'; position: number; priority: ThreadPriority | null }
  | { kind: 'open-failed'; error: WireError }
  | { kind: 'advanced'; position: number }
  | { kind: 'error'; error: WireError }
  | { kind: 'restart'; restart: WireRestart }
  | { kind: 'rebuild-progress'; progress: { startedAt: number; position: number; events: number } }
  | { kind: 'rebuild-done'; result: RebuildResult }
  | { kind: 'rebuild-failed'; error: WireError }
  | { kind: 'stopped' };

export const progressOnWire = (progress: RebuildProgress) => ({
  startedAt: progress.startedAt.getTime(),
  position: progress.position,
  events: progress.events,
});
