import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Secret, TOTP } from 'otpauth';
import { ROOT_DIR } from '../src/config.js';
import { machineInfo } from './machine.js';
import { sectionMarkers, writeSection } from './report-sections.js';
import { benchDatabase, connect } from './seed.js';
import { type ApiServer, startApi } from './server.js';
import { median, percentile } from './stats.js';

const HELP = `Usage: npm run bench -- --two-factor [--sign-ins N] [--users N] [--reuse] [--database-url URL] [--report FILE] [--smoke]

  Two-factor sign-in of issue 37, on the compiled API against MariaDB: N sign-ins (default 200)
  with the password alone beside N with the password and a TOTP code (POST /auth/login, then
  POST /auth/two-factor), taken in turn, one at a time, after 10 of each as warm-up. A code's
  time step is taken once per account, so each code sign-in is a different enrolled account
  (enrolled through the API before the run). Target: the p50 of password + code within 1.2 × the
  password alone. Writes the two-factor section of the report (default docs/PERFORMANCE.md;
  --smoke: 10 000 users, 20 sign-ins, its own scratch database ua_bench_two_factor_smoke unless
  --database-url, no report). Fails unless every sign-in opened a session; the target is judged
  in the table.
`;

const TARGET_RATIO = 1.2;
const WARM_UP = 10;

interface Answer {
  status: number;
  text: string;
  cookies: Record<string, string>;
  ms: number;
}

/** One request, its cookies as `name=value` pairs to send back, and its time. */
async function call(
  api: ApiServer,
  method: string,
  url: string,
  init: { body?: unknown; auth?: string; cookie?: string },
) {
  const headers: Record<string, string> = {};
  if (init.auth) headers.authorization = `Bearer ${init.auth}`;
  if (init.cookie) headers.cookie = init.cookie;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const t0 = performance.now();
  const res = await fetch(`${api.baseUrl}${url}`, {
    method,
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  const cookies = Object.fromEntries(
    res.headers.getSetCookie().map((c) => {
      const pair = c.split(';')[0] as string;
      return [pair.slice(0, pair.indexOf('=')), pair];
    }),
  );
  return { status: res.status, text, cookies, ms } satisfies Answer;
}

/** The code of the time step `stepsAgo` before now (0: the current one). */
const codeNow = (secret: string, stepsAgo = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() - stepsAgo * 30_000,
  });

interface Account {
  id: number;
  email: string;
  password: string;
  secret: string | null;
}

/** Accounts made through the API as an administrator would; `enrol` ones set up a second factor themselves. */
async function makeAccount(api: ApiServer, token: string, stamp: string, n: number, enrol: boolean): Promise<Account> {
  const email = `bench-tfa-${stamp}-${n}@example.com`;
  const password = `bench-Tfa-${stamp}-${n}`;
  const made = await call(api, 'POST', '/api/users', {
    auth: token,
    body: { name: `Bench two-factor ${n}`, email, password, password_confirmation: password },
  });
  if (made.status !== 201) throw new Error(`POST /users: ${made.status} ${made.text}`);
  const id = Number(JSON.parse(made.text).item.id);
  if (!enrol) return { id, email, password, secret: null };
  const login = await call(api, 'POST', '/api/auth/login', { body: { email, password } });
  const cookie = login.cookies.sid;
  if (login.status !== 200 || !cookie) throw new Error(`POST /auth/login: ${login.status} ${login.text}`);
  const setup = await call(api, 'POST', '/api/account/two-factor', { cookie });
  if (setup.status !== 200) throw new Error(`POST /account/two-factor: ${setup.status} ${setup.text}`);
  const { secret } = JSON.parse(setup.text) as { secret: string };
  // The previous step's code (one either side is accepted): a step is used once, so confirming
  // with the current one would spend the code a sign-in in the same 30 s would need. Under load a
  // 30 s boundary can pass between reading the clock and the server checking the code (then two
  // steps back): the code is read again once, for the step the server is on now.
  let confirmed = await call(api, 'POST', '/api/account/two-factor/confirm', {
    cookie,
    body: { code: codeNow(secret, 1) },
  });
  if (confirmed.status === 422) {
    confirmed = await call(api, 'POST', '/api/account/two-factor/confirm', {
      cookie,
      body: { code: codeNow(secret, 1) },
    });
  }
  if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status} ${confirmed.text}`);
  return { id, email, password, secret };
}

/** A sign-in from the first request to the session cookie: the password, then the code when asked. */
async function signIn(api: ApiServer, account: Account): Promise<{ ms: number; session: boolean }> {
  const first = await call(api, 'POST', '/api/auth/login', {
    body: { email: account.email, password: account.password },
  });
  if (!account.secret) return { ms: first.ms, session: first.status === 200 && first.cookies.sid !== undefined };
  const challenge = first.cookies.tfa;
  if (first.status !== 200 || !challenge) return { ms: first.ms, session: false };
  const second = await call(api, 'POST', '/api/auth/two-factor', {
    cookie: challenge,
    body: { code: codeNow(account.secret) },
  });
  return { ms: first.ms + second.ms, session: second.status === 200 && second.cookies.sid !== undefined };
}

interface Figures {
  users: number;
  signIns: number;
  machine: string;
  load: number;
  password: { p50: number; p90: number };
  twoFactor: { p50: number; p90: number };
  failed: number;
}

export async function runTwoFactorBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--two-factor'),
    options: {
      'sign-ins': { type: 'string' },
      users: { type: 'string' },
      reuse: { type: 'boolean', default: false },
      smoke: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      report: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const smoke = values.smoke;
  const signIns = Number(values['sign-ins'] ?? (smoke ? 20 : 200));
  const users = Number(values.users ?? (smoke ? 10_000 : 1_000_000));
  const report = values.report
    ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.report)
    : smoke
      ? null
      : path.join(ROOT_DIR, 'docs/PERFORMANCE.md');
  const started = Date.now();
  const log = (m: string) =>
    process.stdout.write(`[two-factor ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${m}\n`);
  const { url, settings, token } = await benchDatabase({
    url: values['database-url'] ?? (smoke ? 'mysql://root@127.0.0.1:3306/ua_bench_two_factor_smoke' : undefined),
    smoke,
    reuse: values.reuse,
    users,
    tokenName: 'bench-two-factor',
    log,
  });
  const machine = await machineInfo(settings);
  const load = os.loadavg()[0] ?? 0;
  const conn = await connect(settings);
  await conn.query('DELETE FROM rate_limits');
  // The limits are raised so that the run measures sign-ins, not the 429 of one client signing in often.
  Object.assign(process.env, { LOGIN_MAX_ATTEMPTS_PER_IP: '100000', LOGIN_MAX_ATTEMPTS_PER_EMAIL: '1000' });
  const api = await startApi(url, log);
  const stamp = String(Date.now());
  const made: number[] = [];
  try {
    const total = signIns + WARM_UP;
    log(`making ${total} accounts with a second factor and one without`);
    const plain = await makeAccount(api, token.token, stamp, 0, false);
    made.push(plain.id);
    const enrolled: Account[] = [];
    for (let n = 1; n <= total; n++) {
      const account = await makeAccount(api, token.token, stamp, n, true);
      made.push(account.id);
      enrolled.push(account);
    }
    log(`${signIns} sign-ins with the password alone and ${signIns} with password + code, in turn`);
    const password: number[] = [];
    const twoFactor: number[] = [];
    let failed = 0;
    for (let i = 0; i < total; i++) {
      const alone = await signIn(api, plain);
      const withCode = await signIn(api, enrolled[i] as Account);
      if (!alone.session || !withCode.session) failed++;
      if (i < WARM_UP) continue;
      password.push(alone.ms);
      twoFactor.push(withCode.ms);
    }
    const figures: Figures = {
      users,
      signIns,
      machine: `${machine.cpu}, ${machine.cores} cores, ${machine.mariadb}, buffer pool ${machine.bufferPoolMb} MB`,
      load,
      password: { p50: median(password), p90: percentile(password, 90) },
      twoFactor: { p50: median(twoFactor), p90: percentile(twoFactor, 90) },
      failed,
    };
    for (const line of table(figures)) log(line);
    if (report && failed === 0) {
      writeSection(report, 'two-factor', section(figures));
      log(`report written to ${report}`);
    }
    if (failed > 0) log(`${failed} sign-ins opened no session`);
    return failed === 0 ? 0 : 1;
  } finally {
    for (const id of made)
      await call(api, 'DELETE', `/api/users/${id}/force`, { auth: token.token }).catch(() => undefined);
    await conn.query('DELETE FROM rate_limits');
    await api.stop();
    await conn.end();
  }
}

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : '—');

function table(f: Figures): string[] {
  const ratio = f.twoFactor.p50 / f.password.p50;
  return [
    '| Sign-in | p50 | p90 |',
    '|---|---|---|',
    `| password alone | ${ms(f.password.p50)} | ${ms(f.password.p90)} |`,
    `| password + TOTP code (two requests) | ${ms(f.twoFactor.p50)} | ${ms(f.twoFactor.p90)} |`,
    `| **ratio of the p50s** | **${ratio.toFixed(2)} ×** | target ≤ ${TARGET_RATIO} ×: ${ratio <= TARGET_RATIO ? 'pass' : 'miss'} |`,
  ];
}

function section(f: Figures): string {
  const { start, end } = sectionMarkers('two-factor');
  return [
    start,
    '## Two-factor sign-in',
    '',
    `Written by \`npm run bench -- --two-factor --reuse\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: ${f.users.toLocaleString('en')} users; ${f.signIns} sign-ins of each kind, one at a time, in turn; one API process; ${f.machine}; load average ${f.load.toFixed(2)} at the start.`,
    '',
    ...table(f),
    '',
    'A sign-in is timed from its first request to the answer that sets the session cookie, as the client sees it. The code step hashes no password (the challenge cookie says the password step passed), so a second factor costs one request, not a second password hash.',
    end,
  ].join('\n');
}
