import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { afterEach, describe, expect, it } from 'vitest';
import { newSecret } from '../../src/auth/secrets.js';
import { newTotpSecret, otpauthUrl } from '../../src/auth/totp.js';
import { PASSWORD } from '../support/given.js';
import { SECRET_REVEALING_PROCEDURES, scanCaptures, totalsLine, unzipText } from '../support/secret-scan.js';
import { excerpt, findSecrets } from '../support/secrets.js';

/** The secret scan of test/secret-scan.global-setup.ts, on captures planted here. */
const HASH = 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=';
const token = newSecret('uat_');
const session = newSecret();

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function plant(files: Record<string, unknown[]>) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ua-scan-test-'));
  for (const [name, records] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, name), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  }
  return dir;
}

function zipped(text: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('<workbook/>'), 'xl/workbook.xml');
  zip.addBuffer(Buffer.from(text), 'xl/worksheets/sheet1.xml', { compress: true });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

describe('finding secrets in text', () => {
  const known = { passwords: [PASSWORD], randoms: new Map([[session, 'session' as const]]) };

  it('finds a password, a hash, a token and a known session id, and nothing in plain text', () => {
    const text = `a ${PASSWORD} b ${HASH} c ${token} d sid=${session} e`;
    expect(findSecrets(text, known).map((h) => h.kind)).toEqual(['hash', 'token', 'password', 'session']);
    expect(findSecrets('uat_nope, scrypt is a function, a-strong-passwor', known)).toEqual([]);
  });

  it('finds a token body without its prefix, once the token is known', () => {
    const body = token.slice('uat_'.length);
    const withToken = { ...known, randoms: new Map([[body, 'token' as const]]) };
    expect(findSecrets(`{"x":"${body}"}`, withToken).map((h) => h.kind)).toEqual(['token']);
    // With its prefix it is reported once, by its form.
    expect(findSecrets(`{"x":"${token}"}`, withToken)).toHaveLength(1);
  });

  it('finds a password-reset link by its form, and nothing in a path that is not one', () => {
    const link = `https://admin.example.com/reset-password/${newSecret()}`;
    expect(findSecrets(`{"url":"${link}"}`, known).map((h) => h.kind)).toEqual(['link']);
    expect(findSecrets('/reset-password/short and /invite-password/x', known)).toEqual([]);
  });

  it('finds a TOTP secret, bare or in its otpauth URL, and a recovery code, but not words of their shape', () => {
    const secret = newTotpSecret();
    const url = otpauthUrl(secret, 'ann@example.com', 'User administration');
    expect(findSecrets(`{"secret":"${secret}"}`, known).map((h) => h.kind)).toEqual(['totp']);
    expect(findSecrets(`{"otpauth_url":"${url}"}`, known).map((h) => h.kind)).toEqual(['totp']);
    // An address whose local part has a code's form (as the tests' own had, before their dot), `@` as `%40`.
    const testers = otpauthUrl(secret, 'user2-23456@example.com', 'User administration');
    expect(findSecrets(`{"otpauth_url":"${testers}"}`, known).map((h) => h.kind)).toEqual(['totp']);
    expect(findSecrets('{"code":"ab3de-fgh2j"}', known).map((h) => h.kind)).toEqual(['recovery']);
    expect(findSecrets('hello-world, USERS-LIST, an ABCDEFGHIJKLMNOPQRSTUVWXYZ234567x', known)).toEqual([]);
  });

  it('lets a reset link through only in the url of the administrator route that answers it', async () => {
    const url = `https://admin.example.com/reset-password/${newSecret()}`;
    const post = { f: 'a.test.ts', m: 'POST', r: '/api/users/:id/password-reset', u: '/api/users/1/password-reset' };
    const where = plant({
      'responses-1.jsonl': [
        { ...post, s: 202, b: JSON.stringify({ reset: { user_id: 1 }, url }) },
        { ...post, s: 202, b: JSON.stringify({ reset: { user_id: 1, note: url } }) },
        { f: 'a.test.ts', m: 'POST', r: '/api/auth/password/forgot', u: '/api/auth/password/forgot', s: 202, b: url },
      ],
    });
    const routes = [
      { route: 'POST /api/users/:id/password-reset', procedure: 'passwordReset.send', status: 202 },
      { route: 'POST /api/auth/password/forgot', procedure: 'passwordReset.forgot', status: 202 },
    ];
    const report = await scanCaptures(where, { reveals: SECRET_REVEALING_PROCEDURES, routes });
    expect(report.findings.map((f) => `${f.secret} · ${f.source}`)).toEqual([
      'link · a.test.ts: POST /api/users/1/password-reset → 202',
      'link · a.test.ts: POST /api/auth/password/forgot → 202',
    ]);
  });

  it('lets an invitation link through only in the url of the invite route and of a create with invite', async () => {
    const url = `https://admin.example.com/invite/${newSecret()}`;
    const invite = { f: 'a.test.ts', m: 'POST', r: '/api/users/:id/invite', u: '/api/users/1/invite' };
    const create = { f: 'a.test.ts', m: 'POST', r: '/api/users', u: '/api/users' };
    const where = plant({
      'responses-1.jsonl': [
        { ...invite, s: 202, b: JSON.stringify({ invitation: { user_id: 1 }, url }) },
        { ...create, s: 201, b: JSON.stringify({ item: { id: 2 }, invitation: { user_id: 2 }, url }) },
        { ...create, s: 201, b: JSON.stringify({ item: { id: 3, name: url } }) },
        { f: 'a.test.ts', m: 'POST', r: '/api/users/bulk', u: '/api/users/bulk', s: 200, b: url },
      ],
    });
    const routes = [
      { route: 'POST /api/users/:id/invite', procedure: 'invitations.send', status: 202 },
      { route: 'POST /api/users', procedure: 'users.create', status: 201 },
      { route: 'POST /api/users/bulk', procedure: 'users.bulk', status: 200 },
    ];
    const report = await scanCaptures(where, { reveals: SECRET_REVEALING_PROCEDURES, routes });
    expect(report.findings.map((f) => `${f.secret} · ${f.source}`)).toEqual([
      'link · a.test.ts: POST /api/users → 201',
      'link · a.test.ts: POST /api/users/bulk → 200',
    ]);
  });

  it('masks the secret in a one-line excerpt of at most 60 characters', () => {
    const text = `${'x'.repeat(100)}\n${PASSWORD}\n${'y'.repeat(100)}`;
    const [hit] = findSecrets(text, known);
    const shown = excerpt(text, hit as NonNullable<typeof hit>);
    expect(shown.length).toBeLessThanOrEqual(60);
    expect(shown).toContain('corr');
    expect(shown).not.toContain(PASSWORD);
    expect(shown).not.toContain('\n');
  });

  it('reads the text of every file in a zip (an XLSX export)', async () => {
    const text = unzipText(await zipped(`<c><is><t>${token}</t></is></c>`));
    expect(text).toContain(token);
    expect(unzipText(Buffer.from('not a zip'))).toBeNull();
  });
});

describe('the scan over what the tests produced', () => {
  it('counts every record and reports each secret with where it was found', async () => {
    const where = plant({
      'responses-1.jsonl': [
        { f: 'a.test.ts', m: 'GET', u: '/api/users', r: '/api/users', s: 200, b: '{"rows":[]}' },
        { f: 'a.test.ts', m: 'GET', u: '/api/users/1', r: '/api/users/:id', s: 200, b: `{"name":"${PASSWORD}"}` },
        { f: 'a.test.ts', m: 'GET', u: '/api/users/export', r: '/api/users/export', s: 200, b: null, zip: '' },
      ],
      'responses-2.jsonl': [
        {
          f: 'b.test.ts',
          m: 'GET',
          u: '/api/users/export?format=xlsx',
          r: '/api/users/export',
          s: 200,
          b: null,
          zip: (await zipped(HASH)).toString('base64'),
        },
      ],
      'logs-1.jsonl': [
        { f: 'a.test.ts', l: '{"msg":"fine"}' },
        { f: 'a.test.ts', l: `{"cookie":"${session}"}` },
      ],
      'audit-1.jsonl': [{ f: 'a.test.ts', t: 'audit_logs', row: { id: 1, context: { note: token } } }],
      'secrets-1.jsonl': [
        { f: 'a.test.ts', kind: 'session', v: session },
        { f: 'a.test.ts', kind: 'token', v: 'uat_nope' },
      ],
    });
    const report = await scanCaptures(where, { reveals: SECRET_REVEALING_PROCEDURES, routes: [] });
    expect(report).toMatchObject({ responses: 4, logLines: 2, auditRows: 1, unreadable: 1 });
    expect(report.findings.map((f) => `${f.where} ${f.secret}`).sort()).toEqual([
      'audit token',
      'log session',
      'response hash',
      'response password',
    ]);
    expect(report.findings.find((f) => f.where === 'response' && f.secret === 'password')?.source).toBe(
      'a.test.ts: GET /api/users/1 → 200',
    );
    expect(totalsLine(report)).toMatch(/^secret scan: 4 response bodies, 2 log lines, 1 audit rows, 4 secrets/);
  });

  it("allows a revealed secret only in its field of its procedure's successful answer, on either door", async () => {
    const webhookSecret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const created = (body: unknown) => JSON.stringify(body);
    const trpc = (body: unknown) => JSON.stringify({ result: { data: body } });
    const post = { f: 'a.test.ts', m: 'POST' };
    /** Two calls' answers streamed as tRPC's jsonl producer writes them: a head, then chunks by number. */
    const streamed = (field: string, secret: string) =>
      [
        { 0: [[0], [null, 0, 0]], 1: [[0], [null, 0, 1]] },
        [0, 0, [[{ result: 0 }], ['result', 0, 2]]],
        [2, 0, [[{ data: 0 }], ['data', 0, 3]]],
        [3, 0, [[{ revoked: 0 }]]],
        [1, 0, [[{ result: 0 }], ['result', 0, 4]]],
        [4, 0, [[{ data: 0 }], ['data', 0, 5]]],
        [5, 0, [[{ item: { id: 1 }, [field]: secret }]]],
      ]
        .map((line) => JSON.stringify(line))
        .join('\n');
    const where = plant({
      'responses-1.jsonl': [
        // Allowed: the token field of the 201, each door.
        { ...post, r: '/api/tokens', u: '/api/tokens', s: 201, b: created({ item: { id: 1 }, token }) },
        { ...post, r: '/api/users/:id/tokens', u: '/api/users/4/tokens', s: 201, b: created({ token }) },
        { ...post, r: '/api/trpc/:path', u: '/api/trpc/tokens.create', s: 200, b: trpc({ token }) },
        {
          ...post,
          r: '/api/trpc/:path',
          u: '/api/trpc/tokens.list,tokens.create?batch=1',
          s: 200,
          b: JSON.stringify([{ result: { data: { items: [] } } }, { result: { data: { token } } }]),
        },
        // A batch answers with one status for all its calls (an error's when one failed): each call's result counts.
        {
          ...post,
          r: '/api/trpc/:path',
          u: '/api/trpc/tokens.createFor,webhooks.redeliver?batch=1',
          s: 403,
          b: JSON.stringify([{ result: { data: { token } } }, { error: { message: 'no' } }]),
        },
        // A streamed batch (trpc-accept: application/jsonl) as tRPC writes it: the result in chunks.
        {
          ...post,
          r: '/api/trpc/:path',
          u: '/api/trpc/auth.revokeOtherSessions,tokens.create?batch=1',
          s: 200,
          b: streamed('token', token),
        },
        { ...post, r: '/api/webhooks', u: '/api/webhooks', s: 201, b: created({ secret: webhookSecret }) },
        // Refused: another field, another route, another status, another procedure of a batch.
        { ...post, r: '/api/tokens', u: '/api/tokens', s: 201, b: created({ token, note: token }) },
        { f: 'a.test.ts', m: 'GET', r: '/api/tokens', u: '/api/tokens', s: 200, b: created({ token }) },
        { ...post, r: '/api/tokens', u: '/api/tokens', s: 200, b: created({ token }) },
        { ...post, r: '/api/webhooks', u: '/api/webhooks', s: 201, b: created({ secret: token }) },
        {
          ...post,
          r: '/api/trpc/:path',
          u: '/api/trpc/tokens.create,tokens.list?batch=1',
          s: 200,
          b: JSON.stringify([{ result: { data: { items: [] } } }, { result: { data: { token } } }]),
        },
        { ...post, r: '/api/trpc/:path', u: '/api/trpc/users.create', s: 200, b: trpc({ token }) },
        {
          ...post,
          r: '/api/trpc/:path',
          u: '/api/trpc/auth.revokeOtherSessions,tokens.create?batch=1',
          s: 200,
          b: streamed('note', token),
        },
        {
          ...post,
          r: '/api/trpc/:path',
          u: '/api/trpc/auth.revokeOtherSessions,users.create?batch=1',
          s: 200,
          b: streamed('token', token),
        },
        { f: 'a.test.ts', m: 'GET', r: '/api/webhooks', u: '/api/webhooks', s: 200, b: created([webhookSecret]) },
      ],
    });
    const routes = [
      { route: 'GET /api/tokens', procedure: 'tokens.list', status: 200 },
      { route: 'POST /api/tokens', procedure: 'tokens.create', status: 201 },
      { route: 'POST /api/users/:id/tokens', procedure: 'tokens.createFor', status: 201 },
      { route: 'POST /api/webhooks', procedure: 'webhooks.create', status: 201 },
    ];
    const report = await scanCaptures(where, { reveals: SECRET_REVEALING_PROCEDURES, routes });
    expect(report.findings.map((f) => `${f.secret} · ${f.source}`)).toEqual([
      'token · a.test.ts: POST /api/tokens → 201',
      'token · a.test.ts: GET /api/tokens → 200',
      'token · a.test.ts: POST /api/tokens → 200',
      'token · a.test.ts: POST /api/webhooks → 201',
      'token · a.test.ts: POST /api/trpc/tokens.create,tokens.list?batch=1 → 200',
      'token · a.test.ts: POST /api/trpc/users.create → 200',
      'token · a.test.ts: POST /api/trpc/auth.revokeOtherSessions,tokens.create?batch=1 → 200',
      'token · a.test.ts: POST /api/trpc/auth.revokeOtherSessions,users.create?batch=1 → 200',
      'webhook · a.test.ts: GET /api/webhooks → 200',
    ]);
  });

  it('knows the route and status of every revealing procedure the router has', async () => {
    const { appRouter } = await import('../../src/app/app-router.js');
    const { restRoutes } = await import('../../src/rest/routes.js');
    const routes = new Map(restRoutes(appRouter).map((r) => [r.procedurePath, r.rest]));
    for (const procedure of ['tokens.create', 'tokens.createFor']) {
      expect(SECRET_REVEALING_PROCEDURES.map((r) => r.procedure)).toContain(procedure);
      expect(routes.get(procedure)?.status).toBe(201);
    }
  });
});
