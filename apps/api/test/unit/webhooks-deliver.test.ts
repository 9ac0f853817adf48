import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../src/modules/webhooks/webhooks.secret.js';
import { deliver, EXCERPT_LIMIT, RESPONSE_READ_LIMIT, USER_AGENT } from '../../src/webhooks/deliver.js';
import { newEventId } from '../../src/journal/event-id.js';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.js';

let receiver: TestReceiver;
const secret = newWebhookSecret();
const allowed = { timeoutMs: 2_000, allowPrivate: true };

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.setSecret(secret);
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answer = () => ({ status: 204 });
});

const event = (url = receiver.url) => ({
  url,
  secret,
  eventId: newEventId(),
  body: JSON.stringify({ type: 'user.created', timestamp: new Date().toISOString(), data: { user: { id: 7 } } }),
});

describe('one signed delivery', () => {
  it('is verified by the Standard Webhooks reference library', async () => {
    const request = event();
    const result = await deliver(request, allowed);
    expect(result).toMatchObject({ ok: true, statusCode: 204, error: null });
    const [got] = receiver.received;
    expect(got?.verifyError).toBeNull();
    expect(got?.event).toEqual(JSON.parse(request.body));
    expect(got).toMatchObject({ id: request.eventId, contentType: 'application/json', userAgent: USER_AGENT });
    expect(got?.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Math.abs(Number(got?.timestamp) - Date.now() / 1000)).toBeLessThan(5);
  });

  it('fails verification with any other secret', async () => {
    await deliver({ ...event(), secret: newWebhookSecret() }, allowed);
    expect(receiver.received[0]?.verifyError).toMatch(/No matching signature/);
  });

  it('records the answer: status, latency and the first KB of the body', async () => {
    receiver.answer = () => ({ status: 500, body: `${'é'.repeat(600)}tail` });
    const result = await deliver(event(), allowed);
    expect(result).toMatchObject({ ok: false, statusCode: 500, error: 'HTTP 500 Internal Server Error' });
    expect(Buffer.byteLength(result.excerpt as string)).toBeLessThanOrEqual(EXCERPT_LIMIT + 2);
    expect(result.excerpt?.startsWith('éé')).toBe(true);
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });
});

describe('bad endpoints end as failed attempts, never a hang', () => {
  it('does not follow a redirect and names where it pointed', async () => {
    receiver.answer = () => ({ status: 302, headers: { location: 'http://169.254.169.254/latest' } });
    const result = await deliver(event(), allowed);
    expect(result).toMatchObject({ ok: false, statusCode: 302 });
    expect(result.error).toBe('redirect not followed: 302 to http://169.254.169.254/latest');
    expect(receiver.received).toHaveLength(1);
  });

  it('gives up on a slow endpoint at the timeout', async () => {
    receiver.answer = () => ({ hang: true });
    const started = Date.now();
    const result = await deliver(event(), { timeoutMs: 300, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'timed out after 0.3 s' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('gives up on an answer that trickles in past the timeout', async () => {
    receiver.answer = () => ({ status: 200, body: 'late', delayMs: 1_000 });
    const result = await deliver(event(), { timeoutMs: 300, allowPrivate: true });
    expect(result.error).toBe('timed out after 0.3 s');
  });

  it('reads at most 64 KB of a huge answer', async () => {
    receiver.answer = () => ({ huge: 50 * 1024 * 1024 });
    const started = Date.now();
    const result = await deliver(event(), allowed);
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(result.excerpt).toHaveLength(EXCERPT_LIMIT);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(RESPONSE_READ_LIMIT).toBe(64 * 1024);
  });

  it('says so when nothing listens', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await deliver(event(`http://127.0.0.1:${port}/hooks`), allowed);
    expect(result).toMatchObject({ ok: false, statusCode: null, error: `connection refused by 127.0.0.1:${port}` });
  });

  it('says so when the endpoint drops the connection', async () => {
    receiver.answer = () => ({ hang: true });
    const dropper = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    const port = (dropper.address() as net.AddressInfo).port;
    const result = await deliver(event(`http://127.0.0.1:${port}/`), allowed);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/connection reset|socket hang up/);
    await new Promise<void>((resolve) => dropper.close(() => resolve()));
  });
});

describe('server-side request forgery', () => {
  const refused = { timeoutMs: 2_000, allowPrivate: false };

  it('refuses a name that resolves to loopback when it connects (DNS rebinding cannot pass)', async () => {
    const result = await deliver(event(`http://localhost:${receiver.port}/hooks`), refused);
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a literal loopback address without connecting', async () => {
    const result = await deliver(event(), refused);
    expect(result.error).toMatch(/^refused: 127\.0\.0\.1, a loopback address/);
    expect(receiver.received).toHaveLength(0);
    const mapped = await deliver(event(`http://[::ffff:127.0.0.1]:${receiver.port}/`), refused);
    expect(mapped.error).toMatch(/^refused: ::ffff:7f00:1, a loopback address|^refused: ::ffff:127\.0\.0\.1/);
    expect(receiver.received).toHaveLength(0);
  });
});
