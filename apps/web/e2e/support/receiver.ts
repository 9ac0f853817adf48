import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a test receiver was sent, as it arrived. */
export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The Standard Webhooks body's `type`, when it parses. */
  type: string | null;
  /** What the receiver answered. */
  status: number;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>`: endpoints are `${url}/ok`, `${url}/fail`, … */
  url: string;
  received: ReceivedHook[];
  close(): Promise<void>;
}

function typeOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { type?: unknown };
    return typeof parsed.type === 'string' ? parsed.type : null;
  } catch {
    return null;
  }
}

/**
 * A webhook receiver on 127.0.0.1 (the e2e server runs with WEBHOOKS_ALLOW_PRIVATE=true): any
 * path under `/fail` answers 500; elsewhere `?failType=user.deactivated&failNeedle=x` fails the
 * events of that type whose body holds the needle, and everything else is 200.
 */
export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      const body = Buffer.concat(chunks).toString('utf8');
      const type = typeOf(body);
      const failType = url.searchParams.get('failType');
      const failNeedle = url.searchParams.get('failNeedle');
      const fails =
        url.pathname.startsWith('/fail') ||
        (failType !== null && type === failType && (failNeedle === null || body.includes(failNeedle)));
      const status = fails ? 500 : 200;
      received.push({ path: url.pathname, headers: req.headers, body, type, status });
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(fails ? 'The receiver refused this one on purpose.' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A receiver never keeps a test process alive by itself.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
