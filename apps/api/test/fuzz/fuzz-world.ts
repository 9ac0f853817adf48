import { AUDIT_ACTIONS, PERMISSIONS, SEEDED_ROLES } from '@app/contracts';
import fc from 'fast-check';
import { Op } from 'sequelize';
import { UNUSABLE_PASSWORD } from '../../src/auth/password.js';
import { inWriteTurn } from '../../src/db/transaction.js';
import { createSession, SESSION_COOKIE, sessionLimits } from '../../src/auth/sessions.js';
import { given, PASSWORD } from '../support/given.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { engine } from '../support/test-db.js';
import { orHidden } from './fuzz-text.js';
import { bigIdList } from './fuzz-values.js';
import { type Answer, judge, type SentRequest, Tally, TIME_LIMIT_MS, type Verdict } from './fuzz-oracle.js';

/**
 * The app the fuzzer talks to: a fresh database with users in every state, and three callers —
 * nobody, a viewer and an administrator, each with an API token and a session. The fuzzer's own
 * requests deactivate, delete and sign out whoever they hit, callers included, so a caller that
 * gets a 401 is replaced before the next request, and every caller and the seeded population are
 * renewed now and then.
 */

export type Who = 'nobody' | 'viewer' | 'admin';
export type Via = 'token' | 'cookie';

export interface Caller {
  who: Who;
  via: Via;
}

export const callerArb: fc.Arbitrary<Caller> = fc.record({
  who: fc.constantFrom<Who>('nobody', 'viewer', 'admin'),
  via: fc.constantFrom<Via>('token', 'cookie'),
});

/** One generated request: what the counterexample prints when a property fails. */
export interface FuzzRequest extends SentRequest {
  caller: Caller;
  /** The operation or procedure it aims at, for the coverage tally. */
  target: string;
  verdict: Verdict;
  /** Set when the fuzzer wrote its own credentials (a junk cookie or token): a 401 then says nothing about the caller. */
  ownCredentials?: boolean;
}

/** The counterexample as a reader wants it: caller, method, URL, headers and body, long values cut. */
export function describeRequest(req: FuzzRequest): string {
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  return [
    `${req.caller.who} via ${req.caller.via}: ${req.method} ${cut(req.url, 600)}`,
    `headers ${cut(JSON.stringify(req.headers), 400)}`,
    req.body === undefined
      ? 'no body'
      : typeof req.body === 'string'
        ? `body ${cut(JSON.stringify(req.body), 1500)}`
        : `body of ${req.body.length} bytes`,
  ].join('\n  ');
}

/** Makes the generated value print as {@link describeRequest} in fast-check's report. */
export function printable<T extends FuzzRequest>(req: T): T {
  Object.defineProperty(req, fc.toStringMethod, { value: () => describeRequest(req), enumerable: false });
  return req;
}

interface Credentials {
  id: number;
  email: string;
  token: string;
  session: string;
}

export const SEED_EMAIL = (i: number) => `seed-${i}@fuzz.test`;
const seedRoles = (i: number) => (i % 10 === 0 ? ['admin'] : i % 3 === 0 ? ['manager'] : i % 3 === 1 ? ['viewer'] : []);
export const SEEDED = 30;
/** Ids the fuzzer aims at: the seeded users, the callers, and some that never exist. */
export const ID_RANGE = { min: 1, max: 80 };

/** How many requests each engine gets: the full count on SQLite, half on MySQL (the suite runs both). */
export const FUZZ_SCALE = Number(process.env.FUZZ_SCALE ?? (engine() === 'mysql' ? 0.5 : 1));
export const FUZZ_SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

export class FuzzWorld {
  readonly tally = new Tally();
  private callers = new Map<Exclude<Who, 'nobody'>, Credentials>();
  /** Every session id and token a caller held, so no answer can carry one. */
  readonly secrets = new Set<string>();
  private generation = 0;
  private sinceRenewal = 0;
  private renewal: Promise<void> = Promise.resolve();

  private constructor(readonly t: TestApp) {}

  static async start(env: Record<string, string> = {}): Promise<FuzzWorld> {
    // Every sign-in attempt under the limit costs a full password hash (~60 ms): 20 of them, then
    // 429s, which still go through the input's validation first.
    const world = new FuzzWorld(await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '20', ...env }));
    await world.seed();
    await world.renewCallers();
    return world;
  }

  close() {
    return this.t.close();
  }

  /** Users in every state the rules care about: each role, inactive, deleted. */
  private async seed() {
    const g = given(this.t.db);
    for (let i = 1; i <= SEEDED; i++) {
      await g.user({
        email: SEED_EMAIL(i),
        name: `Seed ${i}`,
        roles: seedRoles(i),
        active: i % 4 !== 0,
        deleted: i % 7 === 0,
      });
    }
  }

  /**
   * Puts users 1–30 back: the fuzzer deletes, purges and deactivates them. A purged one is made
   * again under its id (a fresh e-mail: its old one may have been taken since); a deleted one
   * is restored unless it was seeded deleted.
   */
  private async reseed() {
    const { User, Role, UserRole } = this.t.db.models;
    await this.restoreSeededRoles();
    const rows = await User.findAll({ where: { id: { [Op.lte]: SEEDED } }, paranoid: false });
    const present = new Map(rows.map((row) => [row.id, row]));
    const roles = new Map((await Role.findAll()).map((role) => [role.name, role.id]));
    for (let id = 1; id <= SEEDED; id++) {
      const row = present.get(id);
      if (row) {
        if (row.deleted_at && id % 7 !== 0) await row.restore();
        if (!row.deleted_at && id % 4 !== 0 && !row.is_active) await row.update({ is_active: true });
        continue;
      }
      await User.create({
        id,
        name: `Seed ${id}`,
        email: `seed-${id}-${this.generation}@fuzz.test`,
        password_hash: UNUSABLE_PASSWORD,
        is_active: id % 4 !== 0,
      });
      const roleIds = seedRoles(id).map((name) => roles.get(name) as number);
      if (roleIds.length) await UserRole.bulkCreate(roleIds.map((role_id) => ({ user_id: id, role_id })));
    }
  }

  /**
   * Puts the seeded roles back as seeded: the fuzzer renames, regrants and deletes roles, and the
   * callers and seeded users are made with `viewer` and `admin` as they were.
   */
  private async restoreSeededRoles() {
    const { Permission, Role, RolePermission } = this.t.db.models;
    const ids = new Map((await Permission.findAll()).map((p) => [p.name, p.id]));
    for (const [name, granted] of Object.entries(SEEDED_ROLES)) {
      // Holding the role's row: a delete of it still in flight from the last batch (a SCIM or
      // REST request sent before the renewal) waits, instead of removing the role between its
      // read and its grants (a foreign-key failure of the harness, not of the API).
      await this.t.db.sequelize.transaction(async (transaction) => {
        const found = await Role.findOne({ where: { name }, transaction, lock: transaction.LOCK.UPDATE });
        const role = found ?? (await Role.create({ name }, { transaction }));
        await RolePermission.destroy({ where: { role_id: role.id }, transaction });
        await RolePermission.bulkCreate(
          granted.map((p) => ({ role_id: role.id, permission_id: ids.get(p) as number })),
          { transaction },
        );
      });
    }
  }

  private async newCaller(role: 'viewer' | 'admin'): Promise<Credentials> {
    const g = given(this.t.db);
    this.generation += 1;
    const user = await g.user({ roles: [role], email: `${role}-${this.generation}@fuzz.test`, name: `Fuzz ${role}` });
    const token = await g.token(user.id);
    const { token: session } = await createSession(this.t.db, user.id, sessionLimits(this.t.config), {
      ip: null,
      userAgent: null,
    });
    this.secrets.add(session).add(token);
    return { id: user.id, email: user.email, token, session };
  }

  private async renewCallers() {
    await this.reseed();
    this.callers.set('viewer', await this.newCaller('viewer'));
    this.callers.set('admin', await this.newCaller('admin'));
  }

  /**
   * New callers over the seeded users as seeded, for a test whose every answer is known in
   * advance: what a random run before it did (signed its admin out, revoked its session,
   * deactivated it) must not turn an expected 400 into a 401.
   */
  async refresh() {
    this.sinceRenewal = 0;
    this.renewal = inWriteTurn(this.t.db, () => this.renewCallers());
    await this.renewal;
  }

  /** The credentials a request of `caller` carries. */
  private credentialHeaders(caller: Caller): Record<string, string> {
    if (caller.who === 'nobody') return {};
    const creds = this.callers.get(caller.who) as Credentials;
    return caller.via === 'token'
      ? { authorization: `Bearer ${creds.token}` }
      : { cookie: `${SESSION_COOKIE}=${creds.session}` };
  }

  /** Sends one request as its caller, checks the answer, and returns what broke (empty: nothing). */
  async send(req: FuzzRequest): Promise<string[]> {
    // Requests of a batch run at once: the first past the mark renews, the others wait for it.
    if (this.sinceRenewal >= 300) {
      this.sinceRenewal = 0;
      // The harness's own writes take their turn among the API's, as the API's do (transaction.ts).
      this.renewal = inWriteTurn(this.t.db, () => this.renewCallers());
    }
    this.sinceRenewal += 1;
    await this.renewal;
    const headers = { ...this.credentialHeaders(req.caller), ...req.headers };
    const inject = async () => {
      const started = performance.now();
      const res = await this.t.app.inject({
        method: req.method as 'GET',
        url: req.url,
        headers,
        ...(req.body === undefined ? {} : { payload: req.body }),
      });
      return { res, ms: performance.now() - started };
    };
    let { res, ms } = await inject();
    if (ms >= TIME_LIMIT_MS) {
      // Once more before calling it slow: on a shared two-core box a neighbour's burst can stall
      // any one request. A request that is slow because of what it asks is slow twice.
      this.tally.retried += 1;
      ({ res, ms } = await inject());
    }
    const setCookie = res.headers['set-cookie'];
    const answer: Answer = {
      status: res.statusCode,
      contentType: String(res.headers['content-type'] ?? ''),
      body: res.body,
      setCookie: Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [],
      ms,
    };
    this.tally.add(req.target, `${req.caller.who}/${req.caller.via}`, answer);
    const who = req.caller.who;
    if (res.statusCode === 401 && who !== 'nobody' && !req.ownCredentials) {
      // Signed out, deactivated or deleted by an earlier request: a new one takes its place.
      this.callers.set(who, await inWriteTurn(this.t.db, () => this.newCaller(who)));
    }
    // Judged against what the fuzzer wrote, not the credentials: an echoed token is a leak.
    return judge(req, answer, req.verdict, this.secrets);
  }

  /**
   * Known-good values by field name, so that many requests get past validation into the
   * handlers and rules: real e-mails and a fresh one, the password that signs them in, dates,
   * audit actions, ids that exist.
   */
  hints(): Record<string, fc.Arbitrary<unknown>> {
    const id = fc.integer(ID_RANGE);
    const fresh = fc.stringMatching(/^[a-z0-9]{1,12}$/).map((local) => `${local}@new.fuzz.test`);
    const emails = fc.oneof(
      fc.constantFrom(...Array.from({ length: SEEDED }, (_, i) => SEED_EMAIL(i + 1))),
      fresh,
      fc.constantFrom(' Seed-1@FUZZ.test ', 'ｓｅｅｄ-2@fuzz.test'),
    );
    const password = fc.constantFrom(PASSWORD, 'another-Pass-99', 'x'.repeat(8), 'x'.repeat(129));
    const day = fc
      .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) })
      .map((t) => new Date(t).toISOString());
    const list = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, fc.array(arb, { minLength: 1, maxLength: 3 }));
    return {
      id,
      ids: fc.oneof(
        { weight: 12, arbitrary: fc.uniqueArray(id, { minLength: 1, maxLength: 8 }) },
        { weight: 3, arbitrary: fc.array(id, { minLength: 1, maxLength: 8 }) },
        { weight: 1, arbitrary: bigIdList },
      ),
      email: emails,
      password,
      password_confirmation: password,
      // Free text: now and then with a character the text rule refuses (fuzz-text.ts).
      name: orHidden(
        fc.oneof(fc.constantFrom('Seed 1', 'Fuzz', 'ann', ' trimmed '), fc.string({ minLength: 1, maxLength: 20 })),
      ),
      description: orHidden(fc.constantFrom('', 'CRM sync', 'Zoë 😀')),
      q: orHidden(fc.constantFrom('seed', 'fuzz', 'Seed 1', '%', '_', '\\', 'new.fuzz', '127.0.0.1')),
      from: fc.oneof(
        day,
        day.map((d) => d.slice(0, 10)),
      ),
      to: fc.oneof(
        day,
        day.map((d) => d.slice(0, 10)),
      ),
      action: list(fc.constantFrom(...AUDIT_ACTIONS)),
      ip: fc.constantFrom('127.0.0.1', '::1', '::ffff:127.0.0.1', '10.0.0.1'),
      roles_ids: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 4 }),
      role_id: list(fc.integer({ min: 1, max: 4 })),
      actor_id: list(id),
      target_id: id,
      user_id: id,
      // Tokens: a narrowing the caller may or may not hold, the ids of tokens made so far, an expiry either side of now.
      scopes: fc.option(fc.uniqueArray(fc.constantFrom(...PERMISSIONS), { minLength: 1, maxLength: 4 })),
      tokenId: fc.integer({ min: 1, max: 60 }),
      expires_at: fc.option(day),
    };
  }
}

/**
 * FUZZ_SURVEY=1: instead of stopping at the first failure, note each distinct kind of failure
 * (its first line, digits dropped) with one request that caused it, and print them at the end.
 * For triage, when a change breaks many things at once.
 */
export const SURVEY = process.env.FUZZ_SURVEY === '1';
export const survey = new Map<string, { count: number; example: string; why: string }>();

export function failOrSurvey(req: FuzzRequest, broken: string[]) {
  if (broken.length === 0) return;
  if (!SURVEY) throw new Error(`${req.method} ${req.url.slice(0, 200)}: ${broken.join('\n')}`);
  for (const why of broken) {
    const kind = `${req.target} · ${why.split('\n')[0]?.replace(/\d+/g, 'N').slice(0, 120)}`;
    const seen = survey.get(kind);
    if (seen) seen.count += 1;
    else survey.set(kind, { count: 1, example: describeRequest(req), why });
  }
}

export function printSurvey(tally?: Tally) {
  if (!SURVEY) return;
  if (tally) {
    const rows = [...tally.byTargetStatus].sort(([a], [b]) => a.localeCompare(b));
    console.log(rows.map(([k, n]) => `${k}: ${n}`).join('\n'));
  }
  for (const [kind, { count, example, why }] of survey)
    console.log(`${count} × ${kind}\n  ${why.slice(0, 300)}\n  ${example}\n`);
}

/** Requests in flight at once: the app waits on its database about half the time, so a few overlap well. */
const MAX_BATCH = 7;
const batchOf = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { minLength: 1, maxLength: MAX_BATCH });
const MEAN_BATCH = (() => {
  const lengths = fc.sample(batchOf(fc.constant(0)), { numRuns: 2_000, seed: 1 }).map((b) => b.length);
  return lengths.reduce((a, b) => a + b, 0) / lengths.length;
})();

/**
 * Sends `requests` requests (scaled by FUZZ_SCALE; a batch may take it a few past) from `request`, in concurrent batches,
 * and fails with fast-check's shrunk counterexample — the batch cut down to the requests that
 * break a property, each printed with its caller, method, URL, headers and body. Returns how many it sent.
 */
export async function fuzz(world: FuzzWorld, request: fc.Arbitrary<FuzzRequest>, requests: number) {
  const target = Math.max(1, Math.round(requests * FUZZ_SCALE));
  // Batches have random lengths, so the runs are counted in requests: runs past the target send
  // nothing. Once a run fails, fast-check's shrinking replays go through whatever the count.
  let sent = 0;
  let shrinking = false;
  await fc.assert(
    fc.asyncProperty(batchOf(request), async (batch) => {
      if (sent >= target && !shrinking) return;
      sent += batch.length;
      try {
        const verdicts = await Promise.all(batch.map((req) => world.send(req)));
        for (const [i, broken] of verdicts.entries()) failOrSurvey(batch[i] as FuzzRequest, broken);
      } catch (error) {
        shrinking = true;
        throw error;
      }
    }),
    {
      // Enough runs that short batches still reach the target (the sum of lengths is many deviations above it).
      numRuns: Math.ceil((target * 1.2) / MEAN_BATCH),
      ...(FUZZ_SEED === undefined ? {} : { seed: FUZZ_SEED }),
      // Shrinking replays requests against a database the run has changed; bounded so a failure reports quickly.
      interruptAfterTimeLimit: 10 * 60_000,
      markInterruptAsFailure: false,
    },
  );
  return sent;
}

/** `version` as the product writes it (users.item.ts: base64url of `id:lock_version`), so some updates get through. */
export const versionFor = (id: unknown, lock: number) => Buffer.from(`${String(id)}:${lock}`).toString('base64url');
