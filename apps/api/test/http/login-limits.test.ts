import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { engine } from '../support/test-db.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Findings 3 and 4: the per-e-mail limit was read before and counted after the password check
 * (parallel guesses all got through), and its key was the raw e-mail while MySQL's collation
 * finds the account under look-alike spellings. Now every attempt is counted atomically before
 * the check, per canonical e-mail, and only that exact spelling reaches the account.
 */
const MAX = 3;
let t: TestApp;
let viewer: { id: number; email: string; password: string };

beforeAll(async () => {
  t = await startTestApp({
    LOGIN_MAX_ATTEMPTS_PER_EMAIL: String(MAX),
    LOGIN_MAX_ATTEMPTS_PER_IP: '100000',
  });
  viewer = await given(t.db).user({ roles: ['viewer'], email: 'viewer@x.test' });
});
afterAll(() => t.close());
beforeEach(() => t.db.sequelize.query('DELETE FROM rate_limits'));

const viaRest = (email: string, password: string) => request(t.app).post('/api/auth/login', { email, password });
const viaTrpc = (email: string, password: string) => request(t.app).post('/api/trpc/auth.login', { email, password });

async function lockWith(email: string) {
  for (let i = 0; i < MAX; i++) expect((await viaRest(email, 'wrong-password')).statusCode).toBe(401);
}

describe('the per-account login limit', () => {
  it.each([
    ['REST', viaRest],
    ['tRPC', viaTrpc],
  ])(
    'holds against 30 parallel wrong passwords (%s): at most the limit get to the password check',
    async (_door, send) => {
      const answers = await Promise.all(Array.from({ length: 30 }, () => send(viewer.email, 'wrong-password')));
      const statuses = answers.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(MAX);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30 - MAX);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
      // And the right password no longer helps until the window ends.
      expect((await send(viewer.email, viewer.password)).statusCode).toBe(429);
    },
  );

  it('counts case, surrounding spaces and full-width spellings of a locked e-mail against the same account', async () => {
    await lockWith(viewer.email);
    for (const spelling of ['VIEWER@X.TEST', '  viewer@x.test ', 'ｖｉｅｗｅｒ@x.test']) {
      expect((await viaRest(spelling, viewer.password)).statusCode, spelling).toBe(429);
      expect((await viaTrpc(spelling, viewer.password)).statusCode, spelling).toBe(429);
    }
  });

  it('never signs in with an accented look-alike of a locked e-mail', async () => {
    await lockWith(viewer.email);
    // MariaDB's collation finds the account under this spelling, but only the exact canonical
    // spelling reaches an account: this one is an address of nobody, with a counter of its own.
    for (const send of [viaRest, viaTrpc]) {
      expect((await send('viëwer@x.test', viewer.password)).statusCode).toBe(401);
    }
  });

  it('answers an accented spelling alike whether or not an account has the plain one, and never signs it in', async () => {
    const known = await given(t.db).user({ email: 'known@x.test' });
    /** What a client can tell from an answer: status, code and message (not the request id). */
    const seen = async (res: Awaited<ReturnType<typeof viaRest>>) => {
      const body = res.json();
      const error = body.error?.data ? { code: body.error.data.code, detail: body.error.message } : body;
      return { status: res.statusCode, code: error.code, detail: error.detail };
    };
    const probe = async (local: string) => {
      // The accented spelling with the known account's right password, then after the plain
      // spelling's failures have used up its counter, on both doors.
      const first = await seen(await viaRest(`${local}@x.tést`, known.password));
      await lockWith(`${local}@x.test`);
      const rest = await seen(await viaRest(`${local}@x.tést`, 'wrong-password'));
      const trpc = await seen(await viaTrpc(`${local}@x.tést`, 'wrong-password'));
      return { first, rest, trpc };
    };
    const existing = await probe('known');
    const missing = await probe('unknown');
    expect(existing).toEqual(missing);
    expect(existing.first.status).toBe(401);
    expect(existing.rest.status).toBe(401);
  });

  it.each([
    ['a zero-width space', 'viewer\u200b@x.test'],
    ['a NUL', 'viewer@x.test\u0000'],
  ])('refuses an e-mail with %s with 422, on both doors', async (_what, email) => {
    await lockWith(viewer.email);
    const rest = await viaRest(email, viewer.password);
    expect(rest.statusCode).toBe(422);
    expect(rest.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { email: [expect.stringContaining('invisible')] },
    });
    const trpc = await viaTrpc(email, viewer.password);
    expect(trpc.statusCode).toBe(422);
    expect(trpc.json().error.data.code).toBe('VALIDATION_FAILED');
  });
});

/**
 * Spellings of `viewer@x.test` an attacker might try: case, spaces, width, accents, invisibles.
 * Weighted so that most spellings are accepted at the door and some reach the account.
 */
const ACCENTS = ['\u0301', '\u0308', '\u0327'];
const INVISIBLES = ['\u200b', '\u00ad', '\ufe0f', '\u0000'];
const letterVariant = (ch: string) =>
  fc.noBias(fc.integer({ min: 0, max: 99 })).map((n) => {
    if (n < 60) return ch;
    if (n < 78) return ch.toUpperCase();
    // The full-width form of an ASCII letter or symbol (U+FF01..U+FF5E).
    if (n < 90) return String.fromCharCode(ch.charCodeAt(0) + 0xfee0);
    if (n < 97) return `${ch}${ACCENTS[n % ACCENTS.length]}`;
    return `${ch}${INVISIBLES[n % INVISIBLES.length]}`;
  });
const spelling = fc
  .tuple(
    fc.constantFrom('', ' ', '\t', '\u3000'),
    fc.tuple(...[...'viewer@x.test'].map(letterVariant)).map((parts) => parts.join('')),
    fc.constantFrom('', ' ', '\n'),
  )
  .map(([before, core, after]) => `${before}${core}${after}`);

describe('the login limit, as a property', () => {
  it('gives no two accepted spellings that sign into the same account separate counters', async () => {
    const seen = { 200: 0, 401: 0, 422: 0 } as Record<number, number>;
    await fc.assert(
      fc.asyncProperty(spelling, async (typed) => {
        await t.db.sequelize.query('DELETE FROM rate_limits');
        const alone = await viaRest(typed, viewer.password);
        seen[alone.statusCode] = (seen[alone.statusCode] ?? 0) + 1;
        if (alone.statusCode !== 200) {
          // Refused at the door (422) or no account under this spelling (401): nothing to share.
          expect([401, 422]).toContain(alone.statusCode);
          return;
        }
        // It signs into the account: locked under the plain spelling, it must be locked too…
        await t.db.sequelize.query('DELETE FROM rate_limits');
        await lockWith(viewer.email);
        expect((await viaRest(typed, viewer.password)).statusCode).toBe(429);
        // …and failures under it must lock the plain spelling.
        await t.db.sequelize.query('DELETE FROM rate_limits');
        for (let i = 0; i < MAX; i++) await viaRest(typed, 'wrong-password');
        expect((await viaRest(viewer.email, viewer.password)).statusCode).toBe(429);
      }),
      // A fixed seed: the check below that enough spellings reached the account must not depend on luck.
      { numRuns: 30, seed: 20261123 },
    );
    process.stdout.write(`login spellings (${engine()}): ${JSON.stringify(seen)}\n`);
    // The property was exercised: some spellings reached the account, some were refused.
    expect(seen[200]).toBeGreaterThan(3);
    expect(seen[422]).toBeGreaterThan(0);
  }, 120_000);
});
