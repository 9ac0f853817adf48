import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A webhook receiver for the benchmark: a plain node:http server on loopback that verifies
 * every delivery with the Standard Webhooks reference library (not the product's code),
 * answers 204 at once, and counts what arrived by message id and type.
 */
export interface Receiver {
  url: string;
  /** Deliveries whose signature verified, by message id: how many times each arrived. */
  received: Map<string, number>;
  byType: Map<string, number>;
  /** When each message first arrived (ms since epoch). */
  firstSeenAt: Map<string, number>;
  /** Deliveries refused because the signature did not verify. */
  badSignatures: number;
  setSecret(secret: string): void;
  /** Resolves when `count` distinct messages have arrived since `mark()`, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<number>;
  mark(): void;
  close(): Promise<void>;
}

/** `keepAlive: false` closes each connection after its answer, as a server without keep-alive does. */
export async function startReceiver({ keepAlive = true } = {}): Promise<Receiver> {
  let verifier: Webhook | null = null;
  const received = new Map<string, number>();
  const byType = new Map<string, number>();
  const firstSeenAt = new Map<string, number>();
  let sinceMark = 0;
  let badSignatures = 0;
  let waiter: { count: number; resolve: (at: number) => void } | null = null;
  const connection: Record<string, string> = keepAlive ? {} : { connection: 'close' };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      try {
        const event = verifier?.verify(body, headers) as { type?: string } | undefined;
        if (!event) throw new Error('no secret yet');
        const id = headers['webhook-id'];
        const seen = received.get(id) ?? 0;
        received.set(id, seen + 1);
        if (seen === 0) {
          const now = Date.now();
          firstSeenAt.set(id, now);
          byType.set(String(event.type), (byType.get(String(event.type)) ?? 0) + 1);
          sinceMark++;
          if (waiter && sinceMark >= waiter.count) {
            waiter.resolve(now);
            waiter = null;
          }
        }
        res.writeHead(204, connection).end();
      } catch {
        badSignatures++;
        res.writeHead(400, connection).end();
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    byType,
    firstSeenAt,
    get badSignatures() {
      return badSignatures;
    },
    setSecret(secret) {
      verifier = new Webhook(secret);
    },
    mark() {
      sinceMark = 0;
    },
    waitFor(count, timeoutMs) {
      if (sinceMark >= count) return Promise.resolve(Date.now());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${sinceMark} of ${count} webhook messages arrived within ${timeoutMs / 1000} s`)),
          timeoutMs,
        );
        waiter = {
          count,
          resolve: (at) => {
            clearTimeout(timer);
            resolve(at);
          },
        };
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
