/**
 * What the crash test's clients share: the world as acknowledged answers made it, the
 * requests in doubt, and the one way every command sends a request (attempt).
 */
import { Streams } from '@ledger/domain';
import type { HttpResult, LedgerProcess } from '@ledger/testing';
import type { Evidence } from './log-audit';
import type { SeededRandom } from './seeded-random';

/**
 * A command's answer: a 2xx names the position its append ended at (null when nothing had to
 * be written), each command its own fields besides; an error answer names its code.
 */
export type CommandAnswer = Record<string, unknown> & { position?: number | null; code?: string };

/** One request, remembered so that a request left without an answer can be sent again, unchanged. */
export interface Attempt {
  what: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Reads a received answer: updates the world, returns what the log must now hold. */
  interpret(result: HttpResult<CommandAnswer>): Evidence[];
}

export interface Held {
  token: string;
  nodeId: string;
  model: string;
}

/** What the clients know, shared by all of them: only acknowledged facts, plus requests in doubt. */
export class CrashWorld {
  nodes: string[] = [];
  private nodeCounter = 0;
  private counter = 0;
  readonly held = new Map<string, Held>();
  readonly ended: string[] = [];
  readonly reservations = new Map<string, { reservationId: string; reservationKey: string }>();
  /** Acquires answered 201: retried later with the same requestId, they must get the same token. */
  readonly acknowledgedAcquires: { attempt: Attempt; requestId: string; token: string }[] = [];
  readonly tokenOfRequest = new Map<string, string>();
  /** Requests that got no answer (the server died under them): retried later, unchanged. */
  readonly inDoubt: Attempt[] = [];
  readonly evidence: Evidence[] = [];
  readonly violations: string[] = [];
  acknowledged = 0;
  unanswered = 0;

  constructor(
    readonly prefix: string,
    readonly maxNodes: number,
  ) {}

  nextNodeId(): string {
    return `${this.prefix}-n${++this.nodeCounter}`;
  }

  nextId(kind: string): string {
    return `${this.prefix}-${kind}-${++this.counter}`;
  }
}

export interface MixContext {
  /** The ledger running now (it changes at every restart). */
  ledger(): LedgerProcess;
  world: CrashWorld;
  random: SeededRandom;
  client: number;
}

export interface MixCommand {
  name: string;
  weight: (world: CrashWorld) => number;
  run(context: MixContext): Promise<void>;
}

/** Sends one request; an answer is interpreted, a failure to get one leaves the request in doubt. */
export const attempt = async (context: MixContext, request: Attempt): Promise<void> => {
  const { world } = context;
  let result: HttpResult<CommandAnswer>;
  try {
    result = await context.ledger().request<CommandAnswer>(request.method, request.path, request.body, request.headers);
  } catch {
    world.unanswered++;
    world.inDoubt.push(request);
    return;
  }
  if (result.status >= 500) {
    world.violations.push(`${request.what}: ${result.status} ${JSON.stringify(result.body)}`);
    return;
  }
  if (result.status >= 200 && result.status < 300) world.acknowledged++;
  world.evidence.push(...request.interpret(result));
};

export const ok = (result: HttpResult) => result.status >= 200 && result.status < 300;
export const nodeStream = Streams.node;

/** A 409 stale_token means the allocation ended meanwhile (revoked, released by a model release). */
export const forgetIfStale = (world: CrashWorld, token: string, result: HttpResult): void => {
  if (result.status === 409 && result.body?.code === 'stale_token' && world.held.delete(token)) world.ended.push(token);
};
