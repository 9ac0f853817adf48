import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type mysql from 'mysql2/promise';
import { createApiToken } from '../src/auth/api-tokens.js';
import { ROOT_DIR } from '../src/config.js';
import { machineInfo, resizeBufferPool } from './machine.js';
import { sectionMarkers, writeSection } from './report-sections.js';
import { benchDatabase, connect, prepareSchema } from './seed.js';
import { type ApiServer, startApi } from './server.js';
import { median, percentile } from './stats.js';

const HELP = `Usage: npm run bench -- --roles [--users N] [--reuse] [--innodb-buffer-pool-mb M] [--database-url URL] [--report FILE] [--smoke]

  The role figures of issue 27, on the compiled API against MariaDB:
  1. GET /roles (every role with its exact users_count), one request at a time for 5 s
     (target p50 ≤ 30 ms);
  2. a role "bench-staff" granting users.view and audit.view, given to 80 % of the users
     (800 000 at a million; nobody else but the administrators holds audit.view): the preview
     of taking audit.view away (POST /roles/{id}/preview), 9 times (target p50 ≤ 1 s);
  3. saving that change and back (PUT /roles/{id}), 10 times each way (target p50 ≤ 100 ms),
     each followed at once by a member's GET /audit, which must be refused right after the
     removal and answered right after the grant (immediate visibility).
  4. deleting that role with its members (DELETE /roles/{id}?detach=true), timed.
  --innodb-buffer-pool-mb M resizes MariaDB's buffer pool for the run and restores it afterwards
  (the figures in docs/PERFORMANCE.md are with 2048: the preview probes users' rows by key).
  The role is removed at the end with its members (DELETE /roles/{id}?detach=true), so the
  database ends as it started. Writes the roles section of the report (default
  docs/PERFORMANCE.md; --smoke: 10 000 users, no report, fails unless every step answered as it should).
`;

const ROLE = 'bench-staff';
const KEPT = 'users.view';
const TOGGLED = 'audit.view';

interface Figures {
  users: number;
  members: number;
  machine: string;
  load: number;
  addMembersS: number;
  list: { p50: number; p99: number; n: number; roles: number };
  preview: { p50: number; max: number; losing: number };
  save: { p50: number; p99: number; n: number };
  /** Member requests right after a save that saw the old permissions (must be 0). */
  stale: number;
  deleteMs: number;
}

function caller(api: ApiServer, token: string) {
  const authorization = `Bearer ${token}`;
  return async <T>(method: string, url: string, body?: unknown): Promise<{ status: number; data: T; ms: number }> => {
    const t0 = performance.now();
    const res = await fetch(`${api.baseUrl}${url}`, {
      method,
      headers: body === undefined ? { authorization } : { authorization, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const ms = performance.now() - t0;
    return { status: res.status, data: (text ? JSON.parse(text) : null) as T, ms };
  };
}

type Call = ReturnType<typeof caller>;

function expectOk<T>(answer: { status: number; data: T }, what: string): T {
  if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.data)}`);
  return answer.data;
}

/** Gives the role to every user whose id is not a multiple of 5 (80 %), in statements of 100 000 ids. */
async function addMembers(conn: mysql.Connection, roleId: number): Promise<number> {
  const [[range]] = (await conn.query('SELECT MIN(id) AS lo, MAX(id) AS hi FROM users')) as unknown as [
    [{ lo: number; hi: number }],
  ];
  let added = 0;
  for (let from = Number(range.lo); from <= Number(range.hi); from += 100_000) {
    const [res] = await conn.query<mysql.ResultSetHeader>(
      `INSERT INTO user_roles (user_id, role_id)
         SELECT id, ? FROM users WHERE id >= ? AND id < ? AND MOD(id, 5) <> 0`,
      [roleId, from, from + 100_000],
    );
    added += res.affectedRows;
  }
  return added;
}

/** An active member holding nothing but the role, and a token of theirs. */
async function memberToken(url: string, conn: mysql.Connection, roleId: number): Promise<string> {
  const [rows] = await conn.query<mysql.RowDataPacket[]>(
    `SELECT u.id FROM user_roles ur JOIN users u ON u.id = ur.user_id
      WHERE ur.role_id = ? AND u.is_active = 1 AND u.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM user_roles o WHERE o.user_id = u.id AND o.role_id <> ?)
      LIMIT 1`,
    [roleId, roleId],
  );
  const id = Number(rows[0]?.id);
  if (!id) throw new Error('no member holding only the bench role');
  const db = await prepareSchema(url);
  try {
    return (await createApiToken(db, id, 'bench-roles', new Date(Date.now() + 3_600_000))).token;
  } finally {
    await db.close();
  }
}

async function listFor(call: Call, ms: number) {
  const latencies: number[] = [];
  let roles = 0;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const answer = await call<{ rows: unknown[] }>('GET', '/api/roles?perPage=100&sort=users_count&dir=desc');
    roles = expectOk(answer, 'GET /roles').rows.length;
    latencies.push(answer.ms);
  }
  return { p50: median(latencies), p99: percentile(latencies, 99), n: latencies.length, roles };
}

export async function runRolesBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--roles'),
    options: {
      users: { type: 'string' },
      reuse: { type: 'boolean', default: false },
      'innodb-buffer-pool-mb': { type: 'string' },
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
  const users = Number(values.users ?? (smoke ? 10_000 : 1_000_000));
  const report = values.report
    ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.report)
    : smoke
      ? null
      : path.join(ROOT_DIR, 'docs/PERFORMANCE.md');
  const started = Date.now();
  const log = (m: string) =>
    process.stdout.write(`[roles ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${m}\n`);
  const { url, settings, token } = await benchDatabase({
    url: values['database-url'],
    smoke,
    reuse: values.reuse,
    users,
    tokenName: 'bench-roles',
    log,
  });
  const poolMb = values['innodb-buffer-pool-mb'] === undefined ? null : Number(values['innodb-buffer-pool-mb']);
  if (poolMb !== null && !(Number.isInteger(poolMb) && poolMb >= 128))
    throw new Error('--innodb-buffer-pool-mb: a whole number of MB, at least 128');
  const restoreBufferPool = poolMb === null ? null : await resizeBufferPool(settings, poolMb, log);
  const machine = await machineInfo(settings);
  const load = os.loadavg()[0] ?? 0;
  const conn = await connect(settings);
  await conn.query('DELETE FROM rate_limits');
  const api = await startApi(url, log);
  const admin = caller(api, token.token);
  let roleId = 0;
  try {
    // A role left by an interrupted run goes first, with its members.
    const [left] = await conn.query<mysql.RowDataPacket[]>('SELECT id FROM roles WHERE name = ?', [ROLE]);
    if (left[0]) expectOk(await admin('DELETE', `/api/roles/${left[0].id}?detach=true`), 'DELETE the old role');

    const created = expectOk(
      await admin<{ item: { id: number } }>('POST', '/api/roles', { name: ROLE, permissions: [KEPT, TOGGLED] }),
      'POST /roles',
    );
    roleId = created.item.id;
    log(`giving ${ROLE} to 80 % of the users`);
    const t0 = Date.now();
    const members = await addMembers(conn, roleId);
    const addMembersS = (Date.now() - t0) / 1000;
    log(`  ${members.toLocaleString('en')} members in ${addMembersS.toFixed(1)} s`);
    await conn.query('ANALYZE TABLE user_roles');
    const member = caller(api, await memberToken(url, conn, roleId));

    log('GET /roles, 5 s');
    const list = await listFor(admin, smoke ? 1_000 : 5_000);

    log(`preview: ${ROLE} without ${TOGGLED}`);
    const previews: number[] = [];
    let losing = 0;
    for (let i = 0; i < 9; i++) {
      const answer = await admin<{ losses: Array<{ permission: string; count: number }> }>(
        'POST',
        `/api/roles/${roleId}/preview`,
        { permissions: [KEPT] },
      );
      losing = expectOk(answer, 'preview').losses.find((l) => l.permission === TOGGLED)?.count ?? 0;
      previews.push(answer.ms);
    }

    log(`save: ${TOGGLED} taken away and given back, 10 times each, a member's GET /audit after each`);
    const saves: number[] = [];
    let stale = 0;
    for (let i = 0; i < 20; i++) {
      const grant = i % 2 === 1;
      const { item } = expectOk(await admin<{ item: { version: string } }>('GET', `/api/roles/${roleId}`), 'show');
      const permissions = grant ? [KEPT, TOGGLED] : [KEPT];
      const answer = await admin('PUT', `/api/roles/${roleId}`, { name: ROLE, permissions, version: item.version });
      expectOk(answer, 'PUT /roles/{id}');
      saves.push(answer.ms);
      const seen = await member('GET', '/api/audit?perPage=1');
      if (seen.status !== (grant ? 200 : 403)) stale += 1;
    }

    log(`delete ${ROLE} with its members`);
    const gone = await admin('DELETE', `/api/roles/${roleId}?detach=true`);
    expectOk(gone, 'DELETE /roles/{id}?detach=true');
    roleId = 0;

    const figures: Figures = {
      users,
      members,
      machine: `${machine.cpu}, ${machine.cores} cores, ${machine.mariadb}, buffer pool ${machine.bufferPoolMb} MB`,
      load,
      addMembersS,
      list,
      preview: { p50: median(previews), max: Math.max(...previews), losing },
      save: { p50: median(saves), p99: percentile(saves, 99), n: saves.length },
      stale,
      deleteMs: gone.ms,
    };
    for (const line of table(figures)) log(line);
    const failed = stale > 0 || losing === 0 || list.roles === 0;
    if (report && !failed) {
      writeSection(report, 'roles', section(figures));
      log(`report written to ${report}`);
    }
    if (failed) log('a step did not answer as it should');
    return failed ? 1 : 0;
  } finally {
    if (roleId) {
      const t0 = Date.now();
      const gone = await admin('DELETE', `/api/roles/${roleId}?detach=true`);
      log(`${ROLE} deleted with its members (${gone.status}) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    await api.stop();
    await conn.end();
    await restoreBufferPool?.();
  }
}

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 2 : 1)} ms` : '—');
const verdict = (ok: boolean) => (ok ? 'pass' : 'miss');

function table(f: Figures): string[] {
  const members = f.members.toLocaleString('en');
  return [
    '| Scenario | Measured | Target | Result |',
    '|---|---|---|---|',
    `| GET /roles, ${f.list.roles} roles with exact users_count (${f.list.n} requests) | p50 **${ms(f.list.p50)}**, p99 ${ms(f.list.p99)} | p50 ≤ 30 ms | ${verdict(f.list.p50 <= 30)} |`,
    `| preview of taking ${TOGGLED} from a role of ${members} members (${f.preview.losing.toLocaleString('en')} would lose it) | p50 **${ms(f.preview.p50)}**, slowest ${ms(f.preview.max)} | p50 ≤ 1 s | ${verdict(f.preview.p50 <= 1_000)} |`,
    `| saving that change and back (${f.save.n} PUTs) | p50 **${ms(f.save.p50)}**, p99 ${ms(f.save.p99)} | p50 ≤ 100 ms | ${verdict(f.save.p50 <= 100)} |`,
    `| a member's next request after each save | ${f.stale} of ${f.save.n} saw the old permissions | immediate | ${verdict(f.stale === 0)} |`,
    `| deleting the role, taking it from its ${members} members (\`?detach=true\`) | ${(f.deleteMs / 1000).toFixed(1)} s | — (one transaction; under the 30 s statement timeout) | ${verdict(f.deleteMs < 30_000)} |`,
  ];
}

function section(f: Figures): string {
  const { start, end } = sectionMarkers('roles');
  return [
    start,
    '## Roles',
    '',
    `Written by \`npm run bench -- --roles --reuse --innodb-buffer-pool-mb 2048\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}: ${f.users.toLocaleString('en')} users; a role granting ${KEPT} and ${TOGGLED} given to ${f.members.toLocaleString('en')} of them (${f.addMembersS.toFixed(1)} s, one INSERT … SELECT per 100 000 ids, the member-count triggers firing); one API process; ${f.machine}; load average ${f.load.toFixed(2)} at the start.`,
    '',
    ...table(f),
    '',
    `Each request is sent alone, one after another. A save is PUT /roles/{id} with the version read just before it (not timed). After each save a member holding only that role asks GET /audit?perPage=1, which needs ${TOGGLED}: it must be refused right after the removal and answered right after the grant — permissions are read on each request, nothing caches them. The role is then deleted with its members (DELETE …?detach=true), timed: the last row.`,
    end,
  ].join('\n');
}
