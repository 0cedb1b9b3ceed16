/**
 * The event types the audit index files as a small integer (its place in this list)
 * instead of its name: a one-byte value in the row and in the type index where the name
 * took fourteen. On the bench's 1,000,000 events the index (with its rowid-ended indexes) is
 * 18% smaller and its five indexes, built alone, take 0.2-0.3 s less: the last seconds of a
 * `ledger-cli rebuild` wait on them (the bench's read-model-rebuild section).
 *
 * Append only: a type's code never changes. A type not listed (one added later, or a
 * log's type no ledger version wrote) is filed under its name, and a query asks for both
 * (auditTypeValues), so a type appended here later still finds the rows filed under its
 * name before. The list holds every type EVENT_SUMMARIES has a line for (a unit test checks).
 */
export const AUDIT_TYPE_CODES: readonly string[] = Object.freeze([
  'AcquireRouted',
  'AllocationReleased',
  'AllocationRevoked',
  'CommandRefused',
  'DeploymentFailed',
  'DeploymentReportRepeated',
  'DeploymentStarted',
  'DeviceRegistered',
  'DeviceRemoved',
  'DhcpLeaseObserved',
  'FaultCleared',
  'LeaseExpired',
  'LeaseGranted',
  'LeaseReleased',
  'LeaseRenewed',
  'MaintenanceEnded',
  'MaintenanceStarted',
  'NodeAcquired',
  'NodeDeployed',
  'NodeEnlisted',
  'NodeFaulted',
  'NodeReserved',
  'PendingCleanupDone',
  'PowerSyncFailed',
  'PowerSyncRecovered',
  'ReservationCancelled',
  'ReservationExpired',
  'AllocationOwnerDataSet',
  'DhcpLeaseReclaimed',
]);

const CODES = new Map(AUDIT_TYPE_CODES.map((type, code) => [type, code]));

/** What a row stores for an event's type: its code, or its name if it has none. */
export const auditTypeValue = (type: string): number | string => CODES.get(type) ?? type;

/** Every value a row of this type may hold: its code if it has one, and its name. */
export const auditTypeValues = (type: string): (number | string)[] => {
  const code = CODES.get(type);
  return code === undefined ? [type] : [code, type];
};

/** The event type a row's stored value stands for. */
export const auditTypeName = (value: number | string): string => (typeof value === 'number' ? (AUDIT_TYPE_CODES[value] ?? String(value)) : value);
