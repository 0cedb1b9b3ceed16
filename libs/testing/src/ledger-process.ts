import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Middleware } from 'openapi-fetch';
import { createLedgerClient, type LedgerApi } from '@ledger/client';
import { apiContract } from './api-contract';
import { RecentOutput } from './recent-output';
import { PATIENCE_MS } from './until';

const MAIN = resolve(__dirname, '../../../apps/ledger/src/main.js');

export interface HttpResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export interface StartOptions {
  dataDir?: string;
  env?: Record<string, string>;
  /** Flags for node itself, before the script (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
}

/** Every answer the typed client gets is held to the OpenAPI document (status and body schema). */
const contractCheck: Middleware = {
  async onResponse({ request, response }) {
    const body = await response.clone().text();
    apiContract().check(request.method, request.url, response.status, response.headers.get('content-type'), body, response.headers);
    return undefined;
  },
};

/**
 * The typed client hands fetch a Request, whose body is a stream; sent as a string instead
 * (as a hand-written call would), so the connection handling is the one the suite always
 * had, and a failure says its cause.
 */
const fetchWithTextBody = async (request: Request): Promise<Response> => {
  const body = request.body ? await request.text() : undefined;
  try {
    return await fetch(request.url, { method: request.method, headers: request.headers, body });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`${request.method} ${request.url} failed: ${cause?.code ?? cause?.message ?? String(error)}`, { cause: error });
  }
};

/** Strings go as they are (tests send malformed bodies on purpose); anything else as JSON. */
const asGiven = (body: unknown): string => (typeof body === 'string' ? body : JSON.stringify(body));

/**
 * Speaks HTTP to a ledger with one API key (or none), as one client would: through the
 * typed client derived from the OpenAPI document (libs/ledger-client), whose every
 * answer is checked against that document.
 */
export class LedgerClient {
  /** Typed calls: `api.GET('/v1/nodes/{nodeId}', { params: { path: { nodeId } } })`. */
  readonly api: LedgerApi;

  constructor(
    readonly url: string,
    readonly apiKey: string | null,
  ) {
    this.api = createLedgerClient({ baseUrl: url, apiKey, fetch: fetchWithTextBody as typeof fetch, middleware: [contractCheck] });
  }

  /** A request by method and literal path (query string included), for tests that send what no typed call would. */
  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    const untyped = this.api.request as unknown as (
      method: string,
      url: string,
      init: Record<string, unknown>,
    ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    const { data, error, response } = await untyped(method.toLowerCase(), path, { body, headers, parseAs: 'text', bodySerializer: asGiven });
    let parsed: unknown = response.ok ? data : error;
    if (response.ok && typeof data === 'string') {
      try {
        parsed = data ? JSON.parse(data) : null;
      } catch {
        // not JSON: keep the text
      }
    }
    return { status: response.status, body: (parsed ?? null) as T, headers: response.headers };
  }

  post<T = Record<string, unknown>>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }

  get<T = Record<string, unknown>>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }

  /** The log's head position, as /healthz reports it: what a later read waits for with minPosition. */
  async storeHead(): Promise<number> {
    return (await this.get<{ store: { head: number } }>('/healthz')).body.store.head;
  }
}

/**
 * The real ledger, built, started as its own process on a free port, with its data in
 * a temp dir: end-to-end tests talk to it over HTTP only, as a client would. By default
 * it speaks as the operator whose key the ledger wrote on first start; `as(key)`
 * speaks as anyone else.
 */
export class LedgerProcess extends LedgerClient {
  private constructor(
    private readonly child: ChildProcess,
    /** Resolves once the process has exited and its output has been read to the end. */
    private readonly closed: Promise<unknown>,
    private readonly output: RecentOutput,
    readonly port: number,
    readonly dataDir: string,
  ) {
    super(`http://127.0.0.1:${port}`, readFileSync(join(dataDir, 'operator.key'), 'utf8').trim());
  }

  /** A client with another key (null: none at all). */
  as(apiKey: string | null): LedgerClient {
    return new LedgerClient(this.url, apiKey);
  }

  static tempDataDir(): string {
    return mkdtempSync(join(tmpdir(), 'ledger-e2e-'));
  }

  static async start(options: StartOptions = {}): Promise<LedgerProcess> {
    const dataDir = options.dataDir ?? LedgerProcess.tempDataDir();
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN], {
      // Reads with ?minPosition= wait up to the longest allowed for the read models to catch up:
      // on a busy machine the 5 s default turned a slow fold into a 503 a test did not expect.
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LEDGER_DATA_DIR: dataDir, LOG_LEVEL: 'info', LEDGER_READ_WAIT_MS: '60000', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closed = once(child, 'close').catch(() => undefined);
    const output = new RecentOutput(200_000);
    child.stdout!.on('data', (chunk: Buffer) => output.append(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.append(chunk.toString()));
    const port = await new Promise<number>((resolvePort, reject) => {
      // A bound for a hung start, not a speed check: catching up a large log on a loaded 2-core machine took over 20 s in CI.
      const timer = setTimeout(() => {
        // Killed, or the orphan keeps this test process alive and the whole run hangs (seen in CI: a start that timed out).
        child.kill('SIGKILL');
        reject(new Error(`ledger did not start within 120s:\n${output.text}`));
      }, 120_000);
      // Only the line being written is scanned, never the whole output again, and the
      // listeners go once the port is known (a server logs a line per request for hours).
      let partialLine = '';
      const onData = (chunk: Buffer) => {
        const lines = (partialLine + chunk.toString()).split('\n');
        partialLine = lines.pop() ?? '';
        for (const line of lines) {
          const match = /"msg":"ledger listening"/.test(line) ? /"port":(\d+)/.exec(line) : null;
          if (match) {
            done();
            resolvePort(Number(match[1]));
            return;
          }
        }
      };
      const onExit = (code: number | null) => {
        done();
        reject(new Error(`ledger exited with ${code} before listening:\n${output.text}`));
      };
      const done = () => {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.off('exit', onExit);
      };
      child.stdout!.on('data', onData);
      child.once('exit', onExit);
    });
    const ledger = new LedgerProcess(child, closed, output, port, dataDir);
    return ledger;
  }

  /** The server's process id (e.g. to read its peak RSS from /proc). */
  get pid(): number {
    return this.child.pid!;
  }

  /** Everything the process printed (its structured logs), for assertions and failure reports. */
  get logs(): string {
    return this.output.text;
  }

  /** Resolves once the logs match (log lines are written as responses finish, so they may trail the answer). */
  async waitForLog(pattern: RegExp, timeoutMs = PATIENCE_MS): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!pattern.test(this.output.text)) {
      if (performance.now() > deadline) throw new Error(`no log line matched ${pattern} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Graceful stop (SIGTERM), as an operator would. */
  async stop(): Promise<void> {
    await this.signal('SIGTERM');
  }

  /** A crash: SIGKILL, no chance to flush anything. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  removeData(): void {
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Resolves once the process has exited and everything it printed has been read (logs asserted after a stop are complete). */
  private async signal(signal: NodeJS.Signals): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    await this.closed;
  }
}
