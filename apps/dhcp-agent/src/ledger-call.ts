import { randomUUID } from 'node:crypto';
import { Backoff } from './backoff';

/** A call's outcome as the agent acts on it: taken, or refused, and whether trying again can help. */
export type LedgerAnswer<T> = { ok: true; data: T | undefined } | { ok: false; retry: boolean; status: number; reason: string };

const messageOf = (body: unknown): string => {
  const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message.slice(0, 500) : JSON.stringify(body ?? null).slice(0, 200);
};

/**
 * One call to the ledger, its failures put in words an operator acts on. Only the
 * statuses `final` names (the call's bad input, or a refused decision) are final: an
 * unreachable ledger, a 5xx, a 429 or a refused key (the operator fixes it, the agent
 * carries on) are worth trying again.
 */
export const callLedger = async <T>(
  call: Promise<{ response: Response; data?: T; error?: unknown }>,
  url: string,
  signal: AbortSignal,
  final: readonly number[] = [400],
): Promise<LedgerAnswer<T>> => {
  try {
    const { response, data, error } = await call;
    if (response.ok) return { ok: true, data };
    const status = response.status;
    const reason =
      status === 401 || status === 403
        ? `the ledger refuses the agent's key (${status}): give it a provider key with --key or LEDGER_API_KEY`
        : `the ledger answered ${status}: ${messageOf(error)}`;
    return { ok: false, retry: !final.includes(status), status, reason };
  } catch (error) {
    signal.throwIfAborted();
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return {
      ok: false,
      retry: true,
      status: 0,
      reason: `cannot reach the ledger at ${url} (${cause ?? (error instanceof Error ? error.message : String(error))})`,
    };
  }
};

/**
 * Calls until the ledger takes the call or refuses it for good, waiting between tries
 * (Backoff, on the monotonic clock); rejects only when the agent stops. Each try carries
 * its own correlation id, handed to `attempt` and, on a retry, to `retrying`.
 */
export const untilAnswered = async <T>(
  attempt: (correlationId: string) => Promise<LedgerAnswer<T>>,
  retrying: (reason: string, delayMs: number, correlationId: string) => void,
  signal: AbortSignal,
): Promise<LedgerAnswer<T> & { correlationId: string }> => {
  const backoff = new Backoff();
  for (;;) {
    signal.throwIfAborted();
    const correlationId = randomUUID();
    const answer = await attempt(correlationId);
    if (answer.ok || !answer.retry) return { ...answer, correlationId };
    const delayMs = backoff.next();
    retrying(answer.reason, delayMs, correlationId);
    await backoff.wait(delayMs, signal);
  }
};
