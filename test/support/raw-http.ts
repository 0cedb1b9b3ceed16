import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  /** Sent as is: no normalisation, no encoding (so `..`, `%FF` and raw UTF-8 reach the server). */
  path: string;
  headers?: Record<string, string>;
  /** A string is sent as UTF-8; a Buffer as is (e.g. invalid UTF-8). */
  body?: string | Buffer;
}

export interface RawResponse {
  /** 0 when the server closed the connection without answering. */
  status: number;
  statusLine: string;
  text: string;
}

/**
 * One HTTP/1.1 request written byte for byte on its own connection, for requests a
 * well-behaved client (fetch) refuses to send. The socket is not half-closed: Node's
 * server aborts a request whose client ends its side early.
 */
export const rawHttp = (port: number, request: RawRequest, timeoutMs = 15_000): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
    const headers = { host: `127.0.0.1:${port}`, connection: 'close', ...(body ? { 'content-length': String(body.length) } : {}), ...request.headers };
    const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`;
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${request.method} ${request.path.slice(0, 200)}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined); // a reset after the answer is fine; no answer is reported below
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const statusLine = text.slice(0, Math.max(0, text.indexOf('\r\n')));
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
      resolve({ status: match ? Number(match[1]) : 0, statusLine, text });
    });
    socket.write(Buffer.concat([Buffer.from(head, 'utf8'), ...(body ? [body] : [])]));
  });
