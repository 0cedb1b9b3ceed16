/**
 * Groups a CPU profile's samples into the stages a command request goes through, so the
 * cost of each layer reads in microseconds per request (issue 16, point 3). A sample is
 * placed by its stack first (work for the read models and the lease cascade after a commit,
 * wherever it sits; logging, when a logger is the nearest code above the leaf), then by the
 * layer of its leaf frame.
 */
import { layerOf } from './layer-of';

export interface StackFrame {
  functionName: string;
  url: string;
}

const STAGES_BY_LAYER: ReadonlyArray<[stage: string, layer: RegExp]> = [
  ['garbage collection', /^\(garbage collector\)$/],
  ['domain (decide, fold a node stream)', /^libs\/domain\//],
  ['event store (reads, append hand-off to the writer thread)', /^libs\/event-store\/|^better-sqlite3$|^\(native: postMessage\)$/],
  ['validation (class-validator, class-transformer)', /^(class-validator|class-transformer|validator)$/],
  [
    'Nest pipeline (router, guards, pipes, interceptors, rxjs, async hooks)',
    /^(@nestjs\/.*|rxjs|reflect-metadata|tslib|node:async_hooks|node:internal\/async_hooks|\(native: runMicrotasks\))$/,
  ],
  [
    'fastify (router, hooks, reply, middleware layer)',
    /^(fastify|@fastify\/.*|find-my-way|fast-querystring|fast-decode-uri-component|fast-content-type-parse|fast-json-stringify|light-my-request|avvio|toad-cache|rfdc|reusify|fastq|fastify-plugin|path-to-regexp|process-warning|abstract-logging|secure-json-parse|ret|safe-regex2)$/,
  ],
  [
    'node HTTP (parse, socket write)',
    /^(node:_http_.*|node:net|node:internal\/(streams|stream_base_commons|http|buffer)|node:events|node:buffer|\(native: (writev|writeString|utf8Write|hexSlice|latin1Write)\))$/,
  ],
  ['the ledger app (controllers, services, access, metrics)', /^(apps\/ledger\/|libs\/(access|projections)\/|prom-client$)/],
  ['crypto (ids, key hashes)', /^node:internal\/crypto$|^node:crypto$/],
];

const FOLLOWING_THE_LOG = /log-follower\.js$/;
const OWNED = /\/node_modules\/|\/dist\/(apps|libs)\//;
// The ledger's own request-log hook counts as logging too (apps/ledger/src/http/http-logging.ts).
const LOGGING = /\/node_modules\/(pino|pino-http|nestjs-pino|pino-std-serializers|sonic-boom)\/|\/dist\/apps\/ledger\/src\/http\/http-logging\.js$/;

/** The stage of one sample, given its stack from leaf to root. */
export const stageOf = (stack: readonly StackFrame[]): string => {
  if (stack.some((frame) => FOLLOWING_THE_LOG.test(frame.url))) return 'after the commit: read models and lease cascade';
  // Logging owns a sample when the nearest library or project frame above the leaf is a
  // logger's (pino-http's middleware wraps next(), so "anywhere in the stack" would be all).
  const owner = stack.find((frame) => OWNED.test(frame.url));
  if (owner && LOGGING.test(owner.url)) return 'request logging (pino, pino-http, nestjs-pino)';
  const leaf = stack[0];
  const layer = layerOf(leaf.url, leaf.functionName);
  return STAGES_BY_LAYER.find(([, pattern]) => pattern.test(layer))?.[0] ?? 'other';
};
