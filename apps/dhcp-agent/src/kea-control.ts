import { createConnection } from 'node:net';

/** Kea's control answers: 0 success, 1 error, 2 unsupported command, 3 empty (nothing found). */
export interface KeaAnswer {
  result: number;
  text: string;
  arguments?: Record<string, unknown>;
}

/** The socket could not be reached or answered something that is not a Kea answer. */
export class KeaControlError extends Error {
  override readonly name = 'KeaControlError';
}

const isAnswer = (value: unknown): value is KeaAnswer => !!value && typeof value === 'object' && typeof (value as { result?: unknown }).result === 'number';

/**
 * Kea's control channel on its unix socket (`control-socket` in Kea's configuration): one
 * JSON command per connection, one JSON answer, then Kea closes the connection. The
 * answer is parsed as soon as it is whole, so a server that keeps the connection open
 * does not stall the caller; a silent one is given up after `timeoutMs`.
 */
export class KeaControl {
  constructor(
    readonly socketPath: string,
    private readonly timeoutMs = 10_000,
  ) {}

  command(command: string, args?: Record<string, unknown>): Promise<KeaAnswer> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(this.socketPath);
      let text = '';
      let settled = false;
      const finish = (error: KeaControlError | null, answer?: KeaAnswer) => {
        if (settled) return;
        settled = true;
        socket.destroy();
        if (error) reject(error);
        else resolve(answer!);
      };
      const tryParse = (final: boolean) => {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          if (final)
            finish(new KeaControlError(`Kea's control socket ${this.socketPath} answered ${command} with something that is not JSON (${text.length} bytes)`));
          return;
        }
        // Kea answers a list when the command went to several services (through its control agent): the first is ours.
        const answer = Array.isArray(value) ? (value as unknown[])[0] : value;
        if (isAnswer(answer))
          finish(null, { result: answer.result, text: String(answer.text ?? ''), ...(answer.arguments ? { arguments: answer.arguments } : {}) });
        else finish(new KeaControlError(`Kea's control socket ${this.socketPath} answered ${command} without a result`));
      };
      socket.setEncoding('utf8');
      socket.setTimeout(this.timeoutMs, () =>
        finish(new KeaControlError(`Kea's control socket ${this.socketPath} did not answer ${command} within ${this.timeoutMs} ms`)),
      );
      socket.on('connect', () => socket.write(JSON.stringify({ command, ...(args ? { arguments: args } : {}) })));
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (text.length > 1_000_000) finish(new KeaControlError(`Kea's control socket ${this.socketPath} answered ${command} with more than a megabyte`));
        else tryParse(false);
      });
      socket.on('end', () => tryParse(true));
      socket.on('close', () => tryParse(true));
      socket.on('error', (error: NodeJS.ErrnoException) =>
        finish(
          new KeaControlError(
            `cannot reach Kea's control socket ${this.socketPath} (${error.code ?? error.message}): is lease_cmds loaded and control-socket set?`,
          ),
        ),
      );
    });
  }
}
