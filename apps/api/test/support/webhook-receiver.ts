import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A real webhook endpoint on 127.0.0.1 for tests. Every request is verified with the Standard
 * Webhooks reference library (`Webhook.verify`), not the product's code, and kept. What it
 * answers is up to the test: `answer` is asked for each request.
 */
export interface Received {
  /** The request's path, so one receiver can play several endpoints. */
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  userAgent: string;
  contentType: string;
  body: string;
  /** The verified payload, or null when the signature did not verify. */
  event: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  verifyError: string | null;
  at: number;
}

/** `status` with an optional body and headers, after `delayMs`; `hang` never answers; `huge` streams `bytes`. */
export type Answer =
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | { hang: true }
  | { huge: number; status?: number };

export interface TestReceiver {
  url: string;
  port: number;
  received: Received[];
  setSecret(secret: string): void;
  answer: (received: Received) => Answer;
  /** Resolves with the requests so far once `count` arrived (optionally only those `matching`). */
  waitFor(count: number, timeoutMs?: number, matching?: (r: Received) => boolean): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<TestReceiver> {
  let verifier: Webhook | null = null;
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<import('node:net').Socket>();
  const receiver: TestReceiver = {
    url: '',
    port: 0,
    received,
    setSecret(secret) {
      verifier = new Webhook(secret);
    },
    answer: () => ({ status: 204 }),
    waitFor(count, timeoutMs = 15_000, matching = () => true) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hits = received.filter(matching);
          if (hits.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(hits);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`waited ${timeoutMs} ms for ${count} deliveries, got ${received.filter(matching).length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => String(req.headers[name] ?? '');
      const entry: Received = {
        path: req.url ?? '',
        id: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        signature: header('webhook-signature'),
        userAgent: header('user-agent'),
        contentType: header('content-type'),
        body,
        event: null,
        verifyError: null,
        at: Date.now(),
      };
      try {
        if (!verifier) throw new Error('no secret set');
        entry.event = verifier.verify(body, {
          'webhook-id': entry.id,
          'webhook-timestamp': entry.timestamp,
          'webhook-signature': entry.signature,
        }) as Received['event'];
      } catch (err) {
        entry.verifyError = err instanceof Error ? err.message : String(err);
      }
      received.push(entry);
      for (const waiter of [...waiters]) waiter();
      const answer = receiver.answer(entry);
      if ('hang' in answer) return;
      if ('huge' in answer) {
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(16 * 1024, 'x');
        let sent = 0;
        const pump = () => {
          while (sent < answer.huge) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        pump();
        return;
      }
      setTimeout(() => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      }, answer.delayMs ?? 0);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}
