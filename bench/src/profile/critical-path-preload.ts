/**
 * Loaded into a server with `node -r` by critical-path.js: stamps each token command
 * (POST /v1/allocations/:token/deploying, deployed, failed or release) at the steps of its
 * way through the server, on a clock of microseconds, so a one-client latency splits into
 * stages. The steps are found by class and method name as modules load; a server without
 * one (the bench's baseline has no guards, pipes or command bus) simply has fewer stages.
 * One request at a time is assumed (one client); a request arriving while another is in
 * flight is dropped with it. When its measured window opens (measured-window.ts) it starts
 * collecting; when it closes it writes the stamps to LEDGER_CRITICAL_PATH_FILE (renamed into
 * place once whole). Worker threads load it too and do nothing.
 */
import { Server, ServerResponse, type IncomingMessage } from 'node:http';
import Module from 'node:module';
import { isMainThread } from 'node:worker_threads';
import { onMeasuredWindow, writeWhole } from './measured-window';

/**
 * The steps in the order a request passes them. `writer called` is group commit handing the
 * batch to the store's writer thread, `writer answered` that call's promise settling (the
 * transaction and its sync done), `append committed` the append's own promise settling,
 * `head written` the response's status line and headers (its body follows at once),
 * `response ended` the call that hands the body to the socket (on loopback the kernel
 * normally queues the bytes at the client before that write(2) returns), `response
 * finished` the response's 'finish' event, which Node emits from a later tick, once what was
 * queued before it has run.
 */
export const CRITICAL_PATH_STEPS = [
  'request',
  'body read',
  'access guard',
  'metrics guard',
  'validation pipe',
  'command bus',
  'command handler',
  'append submitted',
  'writer called',
  'writer answered',
  'append committed',
  'handler answered',
  'head written',
  'response ended',
  'response finished',
] as const;
export type CriticalPathStep = (typeof CRITICAL_PATH_STEPS)[number];
export type Stamps = Partial<Record<CriticalPathStep, number>>;

/** [exported class, method, the step its first call in a request stamps, the step its promise settling stamps]. */
const HOOKS: [string, string, CriticalPathStep, CriticalPathStep?][] = [
  ['AccessGuard', 'canActivate', 'access guard'],
  ['CommandMetricsGuard', 'canActivate', 'metrics guard'],
  ['LedgerValidationPipe', 'transform', 'validation pipe'],
  ['CommandBus', 'execute', 'command bus'],
  ['RunTokenCommandHandler', 'execute', 'command handler', 'handler answered'],
  ['SqliteEventStore', 'appendToStream', 'append submitted', 'append committed'],
  ['WorkerSqliteWriter', 'commit', 'writer called', 'writer answered'],
];

const TOKEN_COMMAND = /^\/v1\/allocations\/[^/]+\/(deploying|deployed|failed|release)$/;

const file = process.env.LEDGER_CRITICAL_PATH_FILE;
if (isMainThread && file) {
  const now = () => Number(process.hrtime.bigint()) / 1000;
  let collecting = false;
  let current: Stamps | null = null;
  let collected: Stamps[] = [];

  const emit = Server.prototype.emit as (this: Server, event: string, ...args: unknown[]) => boolean;
  Server.prototype.emit = function (this: Server, event: string, ...args: unknown[]) {
    if (event === 'request' && collecting) {
      const [request, response] = args as [IncomingMessage, ServerResponse];
      if (current !== null) current = null;
      else if (request.method === 'POST' && TOKEN_COMMAND.test(request.url ?? '')) {
        const stamps: Stamps = { request: now() };
        current = stamps;
        request.once('end', () => (stamps['body read'] ??= now()));
        response.once('finish', () => {
          stamps['response finished'] = now();
          if (current === stamps) collected.push(stamps);
          current = null;
        });
      }
    }
    return emit.call(this, event, ...args);
  } as typeof Server.prototype.emit;

  const writeHead = ServerResponse.prototype.writeHead as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
  ServerResponse.prototype.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (current !== null) current['head written'] ??= now();
    return writeHead.apply(this, args);
  } as typeof ServerResponse.prototype.writeHead;

  const end = ServerResponse.prototype.end as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
  ServerResponse.prototype.end = function (this: ServerResponse, ...args: unknown[]) {
    if (current !== null) current['response ended'] ??= now();
    return end.apply(this, args);
  } as typeof ServerResponse.prototype.end;

  const patched = new Set<string>();
  const moduleLoader = Module as unknown as { _load: (...args: unknown[]) => unknown };
  const load = moduleLoader._load;
  moduleLoader._load = function (...args: unknown[]) {
    const exported = load.apply(this, args) as Record<string, unknown> | null;
    if (exported === null || typeof exported !== 'object') return exported;
    for (const [name, method, step, settled] of HOOKS) {
      const prototype = (exported[name] as { prototype?: Record<string, unknown> } | undefined)?.prototype;
      const original = prototype?.[method];
      if (patched.has(name) || typeof original !== 'function') continue;
      patched.add(name);
      prototype![method] = function (this: unknown, ...callArgs: unknown[]) {
        const stamps = current;
        if (stamps !== null) stamps[step] ??= now();
        const result: unknown = original.apply(this, callArgs);
        if (stamps !== null && settled !== undefined) {
          void (result as Promise<unknown>).then(
            () => (stamps[settled] ??= now()),
            () => undefined,
          );
        }
        return result;
      };
    }
    return exported;
  };

  onMeasuredWindow(
    () => {
      collecting = true;
      collected = [];
    },
    () => {
      collecting = false;
      writeWhole(file, JSON.stringify(collected));
    },
  );
}
