/** The one place that knows stream names. */
export const Streams = {
  /** Consistency boundary for everything about one machine. */
  node: (nodeId: string) => `node-${nodeId}`,
  /** Consistency boundary for one IP address's leases. */
  ip: (ip: string) => `ip-${ip}`,
  /** Refusals live apart so a flood of refused requests never contends with real decisions. */
  refusals: (subject: string) => `refusals-${subject}`,
  /** Routes one acquire request to the node it was decided on (idempotency across nodes). */
  request: (requestId: string) => `request-${requestId}`,
} as const;

export const nodeIdOfStream = (stream: string): string | null => (stream.startsWith('node-') ? stream.slice(5) : null);
export const ipOfStream = (stream: string): string | null => (stream.startsWith('ip-') ? stream.slice(3) : null);
/** Whose refusals a refusals stream holds: a nodeId, an IP, or 'ledger' for refusals about no one thing. */
export const refusalSubjectOfStream = (stream: string): string | null => (stream.startsWith('refusals-') ? stream.slice(9) : null);
