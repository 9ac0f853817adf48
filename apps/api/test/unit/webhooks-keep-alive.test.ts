import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { newEventId } from '../../src/journal/event-id.js';
import { newWebhookSecret } from '../../src/modules/webhooks/webhooks.secret.js';
import { type AgentPool, createAgentPool } from '../../src/webhooks/agent-pool.js';
import { deliver } from '../../src/webhooks/deliver.js';

/**
 * Kept-alive delivery against real servers on 127.0.0.1: what the servers saw of the
 * connections (opened, closed) is the evidence, not the client's view of them.
 */
interface Endpoint {
  url: string;
  port: number;
  /** Connections the server accepted. */
  connections: number;
  /** Requests it read, over all connections. */
  requests: number;
  /** Connections still open on the server's side. */
  open: Set<net.Socket>;
  close(): Promise<void>;
}

const started: Endpoint[] = [];
const pools: AgentPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) pool.close();
  await Promise.all(started.splice(0).map((e) => e.close()));
});

async function listen(server: net.Server, endpoint: Omit<Endpoint, 'url' | 'port' | 'close'>): Promise<Endpoint> {
  server.on('connection', (socket: net.Socket) => {
    endpoint.connections += 1;
    endpoint.open.add(socket);
    socket.on('close', () => endpoint.open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const done: Endpoint = Object.assign(endpoint, {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of endpoint.open) socket.destroy();
        server.close(() => resolve());
      }),
  });
  started.push(done);
  return done;
}

/** An HTTP endpoint answering 204; with `idleCloseMs` it closes a connection idle that long, without saying so. */
async function endpoint(idleCloseMs?: number): Promise<Endpoint> {
  const state = { connections: 0, requests: 0, open: new Set<net.Socket>() };
  const server = http.createServer((req, res) => {
    state.requests += 1;
    req.resume();
    req.on('end', () => {
      const socket = req.socket;
      if (idleCloseMs !== undefined) {
        res.on('finish', () => {
          const timer = setTimeout(() => socket.destroy(), idleCloseMs);
          socket.once('data', () => clearTimeout(timer));
        });
      }
      res.writeHead(204).end();
    });
  });
  // No `Keep-Alive: timeout=` hint: the client learns of the close only when it happens.
  server.keepAliveTimeout = 0;
  return listen(server, state);
}

/**
 * A raw endpoint that answers the first request of each connection (keeping it open) and resets
 * the connection when another request comes on it, as a server does that has just closed it
 * (`resetFirst`: resets every connection at its first request, so a fresh one fails too).
 */
async function resettingEndpoint(resetFirst = false): Promise<Endpoint> {
  const state = { connections: 0, requests: 0, open: new Set<net.Socket>() };
  const server = net.createServer((socket) => {
    let served = 0;
    socket.on('data', (data) => {
      if (!data.includes('\r\n\r\n')) return;
      state.requests += 1;
      if (resetFirst || served > 0) return void socket.resetAndDestroy();
      served += 1;
      socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n');
    });
    socket.on('error', () => undefined);
  });
  return listen(server, state);
}

const secret = newWebhookSecret();
const event = (url: string) => ({
  url,
  secret,
  eventId: newEventId(),
  body: JSON.stringify({ type: 'user.created', timestamp: new Date().toISOString(), data: { user: { id: 7 } } }),
});
const pool = (maxSockets = 4, extra: Parameters<typeof createAgentPool>[0] = { maxSockets }) => {
  const made = createAgentPool({ ...extra, maxSockets });
  pools.push(made);
  return made;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('connections are kept alive per endpoint', () => {
  it('sends consecutive deliveries to one endpoint over one connection', async () => {
    const target = await endpoint();
    const agents = pool();
    for (let i = 0; i < 5; i++) {
      expect(await deliver(event(target.url), { timeoutMs: 2_000, allowPrivate: true, agents })).toMatchObject({
        ok: true,
        statusCode: 204,
      });
    }
    expect(target).toMatchObject({ requests: 5, connections: 1 });
  });

  it('opens at most maxSockets connections to one endpoint, however many deliveries are in flight', async () => {
    const target = await endpoint();
    const agents = pool(3);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => deliver(event(target.url), { timeoutMs: 2_000, allowPrivate: true, agents })),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(target.requests).toBe(12);
    expect(target.connections).toBeLessThanOrEqual(3);
  });

  it('without a pool, opens a connection per attempt (and closes it)', async () => {
    const target = await endpoint();
    for (let i = 0; i < 3; i++) await deliver(event(target.url), { timeoutMs: 2_000, allowPrivate: true });
    expect(target).toMatchObject({ requests: 3, connections: 3 });
  });
});

describe('a connection the endpoint closed is not a failed attempt', () => {
  it('delivers 1.5 s later to a server that closes idle connections after 1 s', async () => {
    const target = await endpoint(1_000);
    const agents = pool();
    const options = { timeoutMs: 2_000, allowPrivate: true, agents };
    expect((await deliver(event(target.url), options)).ok).toBe(true);
    await sleep(1_500);
    expect(target.open.size).toBe(0);
    expect(await deliver(event(target.url), options)).toMatchObject({ ok: true, statusCode: 204, error: null });
    expect(target).toMatchObject({ requests: 2, connections: 2 });
  });

  it('sends again, once, on a fresh connection when a reused one is reset before any answer', async () => {
    const target = await resettingEndpoint();
    const agents = pool();
    const options = { timeoutMs: 2_000, allowPrivate: true, agents };
    expect((await deliver(event(target.url), options)).ok).toBe(true);
    // The kept-alive connection is reset as the second request arrives: the attempt goes on.
    expect(await deliver(event(target.url), options)).toMatchObject({ ok: true, statusCode: 204, error: null });
    expect(target).toMatchObject({ requests: 3, connections: 2 });
  });

  it('does not send again when a fresh connection is reset: that is the endpoint failing', async () => {
    const target = await resettingEndpoint(true);
    const result = await deliver(event(target.url), { timeoutMs: 2_000, allowPrivate: true, agents: pool() });
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).toMatch(/connection reset|socket hang up/);
    expect(target).toMatchObject({ requests: 1, connections: 1 });
  });
});

describe('the SSRF guard holds for pooled connections', () => {
  it('refuses a name resolving to loopback, and a literal loopback address, without connecting', async () => {
    const target = await endpoint();
    const agents = pool();
    const refused = { timeoutMs: 2_000, allowPrivate: false, agents };
    const byName = await deliver(event(`http://localhost:${target.port}/hooks`), refused);
    expect(byName.error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    const literal = await deliver(event(target.url), refused);
    expect(literal.error).toMatch(/^refused: 127\.0\.0\.1, a loopback address/);
    expect(target.connections).toBe(0);
  });

  it('never lends a connection opened while private addresses were allowed to a caller that refuses them', async () => {
    const target = await endpoint();
    const agents = pool();
    const url = `http://localhost:${target.port}/hooks`;
    expect((await deliver(event(url), { timeoutMs: 2_000, allowPrivate: true, agents })).ok).toBe(true);
    expect(target.open.size).toBe(1);
    const refused = await deliver(event(url), { timeoutMs: 2_000, allowPrivate: false, agents });
    expect(refused.error).toMatch(/^refused: localhost resolves to/);
    expect(target.requests).toBe(1);
  });
});

describe('the pool lets go of connections', () => {
  it('destroys the agent of an endpoint no longer delivered to, closing its connection', async () => {
    const [gone, kept] = [await endpoint(), await endpoint()];
    let clock = 0;
    const agents = pool(4, { maxSockets: 4, unusedAgentMs: 1_000, now: () => clock });
    const options = { timeoutMs: 2_000, allowPrivate: true, agents };
    await deliver(event(gone.url), options);
    expect(gone.open.size).toBe(1);
    clock = 1_000;
    await deliver(event(kept.url), options);
    expect(agents.size).toBe(1);
    await until(() => gone.open.size === 0);
    expect(kept.open.size).toBe(1);
  });

  it('closes every connection on close()', async () => {
    const [a, b] = [await endpoint(), await endpoint()];
    const agents = pool();
    const options = { timeoutMs: 2_000, allowPrivate: true, agents };
    await Promise.all([deliver(event(a.url), options), deliver(event(b.url), options)]);
    expect(a.open.size + b.open.size).toBe(2);
    agents.close();
    await until(() => a.open.size + b.open.size === 0);
    expect(agents.size).toBe(0);
  });
});

async function until(check: () => boolean, timeoutMs = 2_000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting for the server to see the connection closed');
    await sleep(10);
  }
}
