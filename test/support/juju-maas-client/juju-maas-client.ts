import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SOURCE = resolve(__dirname, '../../../../test/support/juju-maas-client/main.go');
const PACKAGE = 'golang-github-juju-gomaasapi-dev';

/** What one command of the Go program printed: Juju's client's view of the outcome. */
export interface JujuOutcome {
  ok: boolean;
  error?: string;
  kind?: string;
  statusCode?: number;
  machines?: { systemId: string; hostname: string; statusName: string; ownerData: Record<string, string>; interfaces: string[] }[];
  devices?: { systemId: string; hostname: string; parent: string; interfaces: string[] }[];
  values?: Record<string, string>;
}

/** The GOPATH root of Debian's gomaasapi (the folder holding src/github.com/juju/gomaasapi), or why it cannot be used. */
const gomaasapiRoot = (): { root: string } | { missing: string } => {
  if (spawnSync('go', ['version'], { encoding: 'utf8' }).status !== 0) return { missing: 'Go is not installed (Debian package golang-go)' };
  const listed = spawnSync('dpkg', ['-L', PACKAGE], { encoding: 'utf8' });
  const folder = listed.status === 0 ? listed.stdout.split('\n').find((line) => line.endsWith('/src/github.com/juju/gomaasapi')) : undefined;
  if (!folder || !existsSync(join(folder, 'controller.go'))) return { missing: `Juju's MAAS client library is not installed (Debian package ${PACKAGE})` };
  return { root: folder.slice(0, -'/src/github.com/juju/gomaasapi'.length) };
};

/**
 * Juju's own MAAS client (gomaasapi, as Debian packages it) in a small Go program, built
 * offline in GOPATH mode. The program and Go's build cache live in a stable folder: the
 * first spec file to need it builds it, the others (and later runs) find it built, under a
 * name that changes with its source, the Go toolchain and the library's folder. `missing`
 * says why it cannot run here, for a skip.
 */
export class JujuMaasClient {
  private constructor(
    private readonly binary: string,
    private readonly folder: string,
    readonly buildSeconds: number,
  ) {}

  static unavailable(): string | null {
    const found = gomaasapiRoot();
    return 'missing' in found ? found.missing : null;
  }

  static async build(): Promise<JujuMaasClient> {
    const found = gomaasapiRoot();
    if ('missing' in found) throw new Error(found.missing);
    const folder = mkdtempSync(join(tmpdir(), 'juju-maas-client-'));
    const cache = join(tmpdir(), 'provisioning-ledger-go-build-cache');
    mkdirSync(cache, { recursive: true });
    const goVersion = spawnSync('go', ['version'], { encoding: 'utf8' }).stdout;
    const key = createHash('sha256').update(readFileSync(SOURCE)).update(goVersion).update(found.root).digest('hex').slice(0, 16);
    const binary = join(cache, `juju-maas-client-${key}`);
    // Spec files run two at a time: one builds, the other waits and finds the program built.
    const release = await lock(join(cache, 'build.lock'));
    const started = process.hrtime.bigint();
    try {
      if (!existsSync(binary)) {
        const result = await run('go', ['build', '-o', `${binary}.partial`, SOURCE], {
          GO111MODULE: 'off',
          GOPATH: `${join(folder, 'gopath')}:${found.root}`,
          GOCACHE: cache,
          GOFLAGS: '',
          GOTOOLCHAIN: 'local',
        });
        if (result.status !== 0) throw new Error(`building the gomaasapi program failed:\n${result.stderr}`);
        // Renamed once whole: a build killed halfway leaves no program that looks built.
        renameSync(`${binary}.partial`, binary);
      }
    } finally {
      release();
    }
    return new JujuMaasClient(binary, folder, Number(process.hrtime.bigint() - started) / 1e9);
  }

  /** One command, as a Juju controller with this MAAS key would make it: connect, then act. */
  async run(maasUrl: string, apiKey: string, command: string, args: Record<string, string | string[]> = {}): Promise<JujuOutcome> {
    const pairs = Object.entries(args).flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${key}=${v}`));
    const result = await run(this.binary, [maasUrl, apiKey, command, ...pairs], {});
    if (result.status !== 0) throw new Error(`juju-maas-client ${command} exited ${result.status}: ${result.stderr}`);
    return JSON.parse(result.stdout) as JujuOutcome;
  }

  /**
   * A command that reads first and acts later (`hold-then-set-owner-data`): resolves once the
   * program says it holds what it read; `proceed` lets it act and gives its outcome. As a
   * controller that read its machine a while ago and acts on it now.
   */
  async hold(
    maasUrl: string,
    apiKey: string,
    command: string,
    args: Record<string, string> = {},
  ): Promise<{ held: JujuOutcome; proceed(): Promise<JujuOutcome>; stop(): void }> {
    const child = spawn(this.binary, [maasUrl, apiKey, command, ...Object.entries(args).map(([key, value]) => `${key}=${value}`)], {
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 600_000,
    });
    let stdout = '';
    let stderr = '';
    const lines: ((line: string) => void)[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      for (let end = stdout.indexOf('\n'); end >= 0 && lines.length > 0; end = stdout.indexOf('\n')) {
        lines.shift()!(stdout.slice(0, end));
        stdout = stdout.slice(end + 1);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number>((resolveExit) => child.once('close', (code) => resolveExit(code ?? -1)));
    const nextLine = () =>
      Promise.race([
        new Promise<string>((resolveLine) => lines.push(resolveLine)),
        exited.then((code) => Promise.reject(new Error(`juju-maas-client ${command} exited ${code} early: ${stderr}`))),
      ]);
    const held = JSON.parse(await nextLine()) as JujuOutcome;
    return {
      held,
      proceed: async () => {
        const acted = nextLine();
        child.stdin.end('go\n');
        const outcome = JSON.parse(await acted) as JujuOutcome;
        await exited;
        return outcome;
      },
      // A test that failed before proceeding still ends the program it started.
      stop: () => {
        if (child.exitCode === null && child.signalCode === null) child.kill();
      },
    };
  }

  remove(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}

/** A lock between processes: a directory made atomically, waited for while another holds it (one left by a killed run is taken after 15 minutes). */
const lock = async (path: string): Promise<() => void> => {
  for (;;) {
    try {
      mkdirSync(path);
      return () => rmSync(path, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 15 * 60_000) rmSync(path, { recursive: true, force: true });
      await new Promise((resolveWait) => setTimeout(resolveWait, 250));
    }
  }
};

const run = (command: string, args: string[], env: Record<string, string>): Promise<{ status: number; stdout: string; stderr: string }> =>
  new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolveRun({ status: code ?? -1, stdout, stderr }));
  });
