import { Agent, request } from 'node:http';

export interface JsonAnswer {
  status: number;
  /** The parsed JSON answer, as the server sent it: a section states the shape it reads. */
  body: unknown;
}

/**
 * A lean keep-alive JSON client over node:http: the bench process shares the machine
 * with the server, so the client should cost as little CPU as it can.
 */
export class JsonClient {
  private readonly agent: Agent;

  constructor(
    private readonly port: number,
    private readonly apiKey: string | null,
    connections: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  send(method: string, path: string, body?: unknown): Promise<JsonAnswer> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const outgoing = request(
        {
          host: '127.0.0.1',
          port: this.port,
          method,
          path,
          agent: this.agent,
          headers: {
            ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              // not JSON
            }
            resolve({ status: incoming.statusCode ?? 0, body: parsed });
          });
          incoming.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
