/**
 * Commands about a node's health. Like every node command they carry their time
 * (`now`) and, here, the configured thresholds, so deciding stays a pure function.
 */

/** One power-sync result from a provider (the conductor's periodic sync_power_state). */
export type ObservePowerSync = {
  type: 'ObservePowerSync';
  nodeId: string;
  ok: boolean;
  /** What went wrong, for a failed sync; ignored for a successful one. */
  error: string | null;
  observedAt: string;
  /** Consecutive failures that make a power_failure fault (LEDGER_POWER_FAILURES_FOR_FAULT). */
  failuresForFault: number;
  now: string;
};

/** Asked by the ledger's timer: is this node's deployment overdue at `now`? */
export type CheckDeployTimeout = {
  type: 'CheckDeployTimeout';
  nodeId: string;
  timeoutSeconds: number;
  now: string;
};

/** Operator only: the HTTP layer fills `by` from the request's actor. */
export type StartMaintenance = { type: 'StartMaintenance'; nodeId: string; reason: string; by: string; now: string };
export type EndMaintenance = { type: 'EndMaintenance'; nodeId: string; reason: string | null; by: string; now: string };

export type NodeHealthCommand = ObservePowerSync | CheckDeployTimeout | StartMaintenance | EndMaintenance;
