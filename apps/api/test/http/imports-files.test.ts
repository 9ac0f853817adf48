import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Job, JobShow } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { expectStatsFresh, jobsBed } from '../support/jobs-bed.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The checked-in files of test/fixtures/imports (see its README), sent as a browser would. */
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/imports');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

const bed = jobsBed();

beforeAll(async () => {
  await given(bed.t.db).role('editor', ['users.view']);
});

async function importFile(name: string, type: string, query = '') {
  bed.runner(25);
  const res = await bed.t.app.inject({
    method: 'POST',
    url: `/api/users/imports${query ? `?${query}` : ''}`,
    headers: { authorization: `Bearer ${bed.adminToken}`, 'content-type': type },
    payload: fixture(name),
  });
  expect(res.statusCode, res.body).toBe(202);
  const job = await bed.waitForJob((res.json() as { job: Job }).job.id);
  const shown = (await bed.admin.get(`/api/jobs/${job.id}`)).json() as JobShow;
  return { job, problems: shown.problems };
}

async function names(emails: string[]): Promise<Map<string, string>> {
  const rows = await bed.t.db.sequelize.query<{ email: string; name: string }>(
    'SELECT email, name FROM users WHERE email IN (:emails)',
    { replacements: { emails }, type: QueryTypes.SELECT },
  );
  return new Map(rows.map((r) => [r.email, r.name]));
}

describe('importing the fixture files', () => {
  it('answers every kind of bad line with its code and line, and writes only the good lines', async () => {
    const { job, problems } = await importFile('every-error.csv', 'text/csv');
    expect(job.status).toBe('succeeded');
    expect(problems.map((p) => [p.line, p.code])).toEqual([
      [3, 'INVALID_EMAIL'],
      [4, 'INVALID_EMAIL'],
      [5, 'INVALID_EMAIL'],
      [6, 'INVALID_NAME'],
      [7, 'UNKNOWN_ROLE'],
      [8, 'BAD_ACTIVE'],
      [10, 'DUPLICATE_IN_FILE'],
      [11, 'BAD_PASSWORD_HASH'],
      [12, 'INVALID_NAME'],
    ]);
    expect(problems.find((p) => p.line === 4)?.message).toMatch(/invisible or control character/);
    expect(job.import?.outcomes).toEqual({ create: 3, update: 0, unchanged: 0, skip: 1, error: 8 });
    const written = await names([
      'valid.first@example.com',
      'dup@example.com',
      'valid.last@example.com',
      'empty.name@example.com',
      'unknown.role@example.com',
      'bad.active@example.com',
      'bad.hash@example.com',
      'long.name@example.com',
    ]);
    expect([...written.keys()].sort()).toEqual([
      'dup@example.com',
      'valid.first@example.com',
      'valid.last@example.com',
    ]);
    // The report has every problem line, its line number first, so the file can be fixed and sent
    // again; then every account the import created, with its line.
    const report = await bed.admin.get(`/api/jobs/${job.id}/report?format=csv`);
    const lines = report.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('"line","id","email","outcome","code","message","before","after"');
    expect(lines).toHaveLength(1 + 9 + 3);
    expect(lines[1]).toMatch(/^3,,"not-an-email","failed","INVALID_EMAIL",/);
    expect(lines.slice(10).map((l) => l.replace(/^\d+,\d+,/, ''))).toEqual(
      ['valid.first@example.com', 'dup@example.com', 'valid.last@example.com'].map(
        (email) => `"${email}","changed","CHANGED","Created.","",""`,
      ),
    );
    await expectStatsFresh(bed.t.db);
  });

  it('brings in a Laravel export whose bcrypt passwords sign in, and replaces them at the first sign-in', async () => {
    const { job } = await importFile('laravel-users.csv', 'text/csv');
    expect(job.import?.file.columns.find((c) => c.header === 'password')?.field).toBe('password_hash');
    expect(job.import?.file.unknown).toEqual(['id', 'email_verified_at', 'remember_token', 'created_at', 'updated_at']);
    expect(job.import?.outcomes.create).toBe(4);
    // The preview never shows a password or a hash, to anyone who may see the job.
    const sample = job.import?.file.sample ?? [];
    expect(sample.map((row) => row[4])).toEqual(['••••••', '••••••', '••••••', '••••••']);
    for (const n of [1, 2, 3, 4]) {
      const login = await request(bed.t.app).post('/api/auth/login', {
        email: `laravel${n}@example.com`,
        password: `laravel-secret-${n}`,
      });
      expect(login.statusCode, `laravel${n}`).toBe(200);
    }
    const hashes = await bed.t.db.sequelize.query<{ password_hash: string }>(
      "SELECT password_hash FROM users WHERE email LIKE 'laravel%@example.com'",
      { type: QueryTypes.SELECT },
    );
    expect(hashes.every((h) => h.password_hash.startsWith('scrypt$'))).toBe(true);
    const wrong = await request(bed.t.app).post('/api/auth/login', {
      email: 'laravel1@example.com',
      password: 'nope-nope-nope',
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('reads a Windows-1252 CSV as Excel saves it, accents intact', async () => {
    const { job, problems } = await importFile('excel-windows.csv', 'text/csv');
    expect(job.import?.file).toMatchObject({ format: 'csv', encoding: 'windows-1252', delimiter: ';', rows: 60 });
    expect(problems).toEqual([]);
    expect(job.import?.outcomes.create).toBe(60);
    const read = await names(['zoe.muller0@example.com', 'inigo.muller5@example.com']);
    expect(read.get('zoe.muller0@example.com')).toBe('Zoë Müller');
    expect(read.get('inigo.muller5@example.com')).toBe('Íñigo Müller');
  });

  it('reads an XLSX as its cells are displayed, and an NDJSON file', async () => {
    const xlsx = await importFile(
      'dates-and-numbers.xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(xlsx.job.import?.file).toMatchObject({ format: 'xlsx', sheet: 'People', rows: 20 });
    expect(xlsx.job.import?.file.sample[0]?.slice(0, 3)).toEqual(['12345', expect.any(String), '26/11/2026']);
    expect(xlsx.problems).toEqual([]);
    const ndjson = await importFile('people.ndjson', 'application/x-ndjson');
    expect(ndjson.job.import?.file).toMatchObject({ format: 'ndjson', rows: 20 });
    expect(ndjson.problems).toEqual([]);
    const [row] = await bed.t.db.sequelize.query<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM users WHERE email LIKE 'nd%@example.com' AND external_id IS NOT NULL",
      { type: QueryTypes.SELECT },
    );
    expect(Number(row?.n)).toBeGreaterThan(0);
  });

  it('keeps a formula-looking name as text, and an export neutralises it', async () => {
    const { problems } = await importFile('utf8-bom-quoted.csv', 'text/csv');
    // The quoted newline makes line 3's name two lines: a name is one line of text.
    expect(problems.map((p) => [p.line, p.code])).toEqual([[3, 'INVALID_NAME']]);
    expect((await names(['formula@example.com'])).get('formula@example.com')).toBe(
      '=HYPERLINK("http://evil.example","click")',
    );
    const exported = await bed.admin.get('/api/users/export?format=csv&q=formula%40example.com');
    expect(exported.body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
  });
});

describe('the size limit', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await startTestApp({ IMPORT_MAX_MB: '1' });
  });
  afterAll(() => small.close());

  it('answers 413 with the limit, before and while reading, and stages nothing', async () => {
    const adminId = (await given(small.db).user({ roles: ['admin'] })).id;
    const token = await given(small.db).token(adminId);
    const big = Buffer.alloc(1024 * 1024 + 10, 'a');
    const res = await small.app.inject({
      method: 'POST',
      url: '/api/users/imports',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      payload: big,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', limit: 1024 * 1024 });
    expect(res.json().detail).toMatch(/limit of 1 MB/);
    // Without a declared length, the limit is met while the bytes arrive.
    const streamed = await small.app.inject({
      method: 'POST',
      url: '/api/users/imports',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      payload: Readable.from([big.subarray(0, 600_000), big.subarray(600_000)]),
    });
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', limit: 1024 * 1024 });
    const [row] = await small.db.sequelize.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM import_uploads', {
      type: QueryTypes.SELECT,
    });
    expect(Number(row?.n)).toBe(0);
  });
});
