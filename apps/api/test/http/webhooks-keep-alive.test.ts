import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until, webhookBed } from '../support/webhook-bed.js';

const bed = webhookBed();

/** An endpoint on 127.0.0.1 answering 204, counting the connections it accepted and those still open. */
const server = {
  url: '',
  connections: 0,
  requests: 0,
  open: new Set<net.Socket>(),
  http: http.createServer((req, res) => {
    server.requests += 1;
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  }),
};

beforeAll(async () => {
  server.http.on('connection', (socket: net.Socket) => {
    server.connections += 1;
    server.open.add(socket);
    socket.on('close', () => server.open.delete(socket));
  });
  await new Promise<void>((resolve) => server.http.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${(server.http.address() as net.AddressInfo).port}/hooks`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.http.closeAllConnections();
      server.http.close(() => resolve());
    }),
);

async function subscribe() {
  server.connections = 0;
  server.requests = 0;
  const res = await bed.admin.post('/api/webhooks', { url: server.url, events: ['user.created'] });
  expect(res.statusCode, res.body).toBe(201);
}

describe('the dispatcher keeps connections alive', () => {
  it('sends consecutive deliveries over one connection, and closes it when it stops', async () => {
    await subscribe();
    const dispatcher = bed.dispatch();
    for (let i = 1; i <= 3; i++) {
      await bed.createUser();
      await until(`delivery ${i}`, async () => server.requests === i);
    }
    expect(server.connections).toBe(1);
    expect(server.open.size).toBe(1);
    await dispatcher.stop();
    await until('the server to see the connection closed', async () => server.open.size === 0, 2_000);
  });

  it('opens no more connections to an endpoint than it has attempts in flight', async () => {
    await subscribe();
    const dispatcher = bed.dispatch({ concurrency: 2 });
    for (let i = 0; i < 8; i++) await bed.createUser();
    await until('eight deliveries', async () => server.requests === 8);
    expect(server.connections).toBeGreaterThanOrEqual(1);
    expect(server.connections).toBeLessThanOrEqual(2);
    await dispatcher.stop();
    await until('the server to see every connection closed', async () => server.open.size === 0, 2_000);
  });
});
