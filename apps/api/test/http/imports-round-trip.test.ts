import type { Job, JobShow } from '@app/contracts';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { auditRows, expectStatsFresh, jobsBed } from '../support/jobs-bed.js';

/**
 * Round trips (issue 40, item 5): a users export, edited as a person would edit it and imported
 * back in upsert mode, updates the accounts its ID column names (an e-mail included) instead of
 * creating new ones; the import's undo gives the old e-mail back.
 */

const bed = jobsBed();

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let counter = 0;
/** A fresh word, so each test's people (and its export's search) are its own. */
const fresh = () => `rt${++counter}x${process.pid}`;

/** A CSV as a spreadsheet saves it: every cell quoted, quotes doubled, CRLF. */
const csvOf = (rows: readonly (readonly string[])[]) =>
  `${rows.map((row) => row.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',')).join('\r\n')}\r\n`;

/** A users export by a caller of its own (the export's rate limit counts per caller). */
async function exportUsers(format: 'csv' | 'xlsx', word: string) {
  const g = given(bed.t.db);
  const exporter = await g.user({ roles: ['manager'], name: 'Zz Exporter' });
  const http = request(bed.t.app, { token: await g.token(exporter.id) });
  const res = await http.get(`/api/users/export?format=${format}&q=${word}&sort=name&dir=asc`);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

async function importAndWait(body: string | Buffer, query: string, type: string, chunkSize = 50) {
  bed.runner(chunkSize);
  const res = await bed.t.app.inject({
    method: 'POST',
    url: `/api/users/imports?${query}`,
    headers: { authorization: `Bearer ${bed.adminToken}`, 'content-type': type },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(202);
  const { job } = res.json() as { job: Job };
  const done = await bed.waitForJob(job.id);
  expect(done.status).toBe('succeeded');
  const shown = (await bed.admin.get(`/api/jobs/${job.id}`)).json() as JobShow;
  return { submitted: job, job: done, problems: shown.problems.map((p) => [p.line, p.code]) };
}

async function undo(jobId: number) {
  const res = await bed.admin.post(`/api/jobs/${jobId}/undo`);
  expect(res.statusCode, res.body).toBe(202);
  const done = await bed.waitForJob(res.json().job.id);
  expect(done.status).toBe('succeeded');
  return done;
}

async function account(id: number) {
  const [row] = await bed.t.db.sequelize.query<{ name: string; email: string; deleted_at: unknown }>(
    'SELECT name, email, deleted_at FROM users WHERE id = :id',
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  return row;
}

/** The ids of the accounts holding `email` (deleted ones too). */
async function holdersOf(email: string) {
  const rows = await bed.t.db.sequelize.query<{ id: number | string }>('SELECT id FROM users WHERE email = :email', {
    replacements: { email },
    type: QueryTypes.SELECT,
  });
  return rows.map((r) => Number(r.id));
}

/** An id no account has. */
async function unusedId() {
  const [row] = await bed.t.db.sequelize.query<{ top: number | string }>('SELECT MAX(id) AS top FROM users', {
    type: QueryTypes.SELECT,
  });
  return Number(row?.top) + 100_000;
}

/** Four people of a fresh word to export, and one outside the export whose e-mail a line takes. */
async function people() {
  const w = fresh();
  const g = given(bed.t.db);
  const ann = await g.user({ name: `${w} Ann`, email: `ann.${w}@example.com`, roles: ['viewer'] });
  const bob = await g.user({ name: `${w} Bob`, email: `bob.${w}@example.com` });
  const cy = await g.user({ name: `${w} Cy`, email: `cy.${w}@example.com` });
  const dee = await g.user({ name: `${w} Dee`, email: `dee.${w}@example.com` });
  const outsider = await g.user({ name: 'Outside The Export', email: `outsider.${fresh()}@example.com` });
  return { w, ann, bob, cy, dee, outsider };
}

type People = Awaited<ReturnType<typeof people>>;

/**
 * What each test's file holds after the edit, by line: 2 Ann renamed, 3 Bob's new e-mail, 4 Cy
 * as exported, 5 Dee given the outsider's e-mail, then 6 an id nobody has, 7 Ann's id again,
 * 8 a new person without an id, 9 an id that is not a number.
 */
const OUTCOMES = { create: 1, update: 2, unchanged: 1, skip: 2, error: 2 };
const PROBLEMS = [
  [5, 'EMAIL_TAKEN'],
  [6, 'ID_NOT_FOUND'],
  [7, 'DUPLICATE_IN_FILE'],
  [9, 'INVALID_ROW'],
];

/** The lines a test adds below the exported ones: [ID, Name, E-mail]. */
async function addedLines(p: People): Promise<string[][]> {
  return [
    [String(await unusedId()), `${p.w} Ghost`, `ghost.${p.w}@example.com`],
    [String(p.ann.id), `${p.w} Ann Again`, `ann.again.${p.w}@example.com`],
    ['', `${p.w} New Person`, `new.${p.w}@example.com`],
    ['abc', `${p.w} Not An Id`, `notanid.${p.w}@example.com`],
  ];
}

/** The dry run foresees, the run does, and the undo takes back: the same for either format. */
async function roundTrip(p: People, file: string | Buffer, type: string) {
  const dry = await importAndWait(file, 'mode=upsert&dryRun=true', type);
  expect(dry.submitted.import?.file.columns.slice(0, 3).map((c) => c.field)).toEqual(['id', 'name', 'email']);
  expect(dry.submitted.import?.file.unknown).toEqual(['Role count', 'Created']);
  expect(dry.job.import?.outcomes).toEqual(OUTCOMES);
  expect(dry.job.import?.fields).toEqual({ name: 1, email: 1 });
  expect(dry.problems).toEqual(PROBLEMS);
  expect((await account(p.bob.id))?.email).toBe(p.bob.email);
  expect(await holdersOf(`new.${p.w}@example.com`)).toEqual([]);

  const run = await importAndWait(file, 'mode=upsert', type);
  expect(run.job.import?.outcomes).toEqual(OUTCOMES);
  expect(run.job.progress).toMatchObject({ processed: 8, changed: 3, skipped: 2, failed: 2 });
  expect(run.problems).toEqual(PROBLEMS);
  // The accounts the IDs name were updated; no account was made for Bob's new e-mail.
  expect(await account(p.ann.id)).toMatchObject({ name: `${p.w} Anne`, email: p.ann.email });
  expect(await account(p.bob.id)).toMatchObject({ name: `${p.w} Bob`, email: `bob.new.${p.w}@example.com` });
  expect(await holdersOf(`bob.new.${p.w}@example.com`)).toEqual([p.bob.id]);
  expect(await holdersOf(p.bob.email)).toEqual([]);
  expect(await account(p.dee.id)).toMatchObject({ email: p.dee.email });
  expect(await holdersOf(p.outsider.email)).toEqual([p.outsider.id]);
  expect(await holdersOf(`ghost.${p.w}@example.com`)).toEqual([]);
  expect(await holdersOf(`ann.again.${p.w}@example.com`)).toEqual([]);
  const [created] = await holdersOf(`new.${p.w}@example.com`);
  expect(created).toBeDefined();
  // The e-mail change is audited like the other fields, on the line it came from.
  const audit = (await auditRows(bed.t.db, 'user.update')).find(
    (r) => r.context?.job_id === run.job.id && r.targets.includes(p.bob.id),
  );
  expect(audit?.changes).toEqual({ email: { before: p.bob.email, after: `bob.new.${p.w}@example.com` } });
  expect(audit?.context).toMatchObject({ line: 3 });
  await expectStatsFresh(bed.t.db);

  const undone = await undo(run.job.id);
  expect(undone.progress).toMatchObject({ processed: 3, changed: 3, skipped: 0 });
  expect(await account(p.bob.id)).toMatchObject({ email: p.bob.email });
  expect(await account(p.ann.id)).toMatchObject({ name: `${p.w} Ann` });
  expect((await account(created as number))?.deleted_at).not.toBeNull();
  await expectStatsFresh(bed.t.db);
}

describe('an exported CSV imported back in upsert mode', () => {
  it('updates the accounts its IDs name, e-mail included; unknown, repeated and taken ones are refused; undo restores', async () => {
    const p = await people();
    const exported = await exportUsers('csv', p.w);
    const [header, ...lines] = parse(exported.body, { bom: true }) as [string[], ...string[][]];
    expect(header.slice(0, 3)).toEqual(['ID', 'Name', 'E-mail']);
    expect(lines.map((l) => Number(l[0]))).toEqual([p.ann.id, p.bob.id, p.cy.id, p.dee.id]);
    const [ann, bob, cy, dee] = lines as [string[], string[], string[], string[]];
    ann[1] = `${p.w} Anne`;
    bob[2] = `bob.new.${p.w}@example.com`;
    dee[2] = p.outsider.email;
    const added = (await addedLines(p)).map((cells) => [...cells, '', '', '', '']);
    await roundTrip(p, csvOf([header, ann, bob, cy, dee, ...added]), 'text/csv');
  });

  it('reads no id in create mode: the ID column is listed among those not imported', async () => {
    const p = await people();
    const exported = await exportUsers('csv', p.w);
    const [header, ...lines] = parse(exported.body, { bom: true }) as [string[], ...string[][]];
    const ann = lines[0] as string[];
    ann[2] = `ann.copy.${p.w}@example.com`;
    const { submitted, job } = await importAndWait(csvOf([header, ann]), 'mode=create&dryRun=true', 'text/csv');
    expect(submitted.import?.file.columns[0]).toEqual({ header: 'ID', field: null });
    expect(submitted.import?.file.unknown).toEqual(['ID', 'Role count', 'Created']);
    expect(job.import?.outcomes).toMatchObject({ create: 1, update: 0 });
  });
});

describe('one account named twice in a file, by its e-mail and by its id', () => {
  it.each([50, 1])('imports the first line only, in one chunk or across chunks (chunks of %i)', async (chunkSize) => {
    const p = await people();
    const file = csvOf([
      ['ID', 'Name', 'E-mail'],
      ['', `${p.w} Ann By Mail`, p.ann.email],
      [String(p.ann.id), `${p.w} Ann By Id`, `ann.moved.${p.w}@example.com`],
    ]);
    const { job, problems } = await importAndWait(file, 'mode=upsert', 'text/csv', chunkSize);
    expect(job.import?.outcomes).toMatchObject({ update: 1, skip: 1 });
    expect(problems).toEqual([[3, 'DUPLICATE_IN_FILE']]);
    expect(await account(p.ann.id)).toMatchObject({ name: `${p.w} Ann By Mail`, email: p.ann.email });
  });
});

describe('an exported XLSX imported back in upsert mode', () => {
  it('updates the accounts its IDs name, e-mail included; unknown, repeated and taken ones are refused; undo restores', async () => {
    const p = await people();
    const exported = await exportUsers('xlsx', p.w);
    // Edited with the library the export writes workbooks with, and saved again, as a spreadsheet app would.
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Users') as ExcelJS.Worksheet;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'ID',
      'Name',
      'E-mail',
      'Role count',
      'Roles',
      'Active',
      'Created',
    ]);
    expect([2, 3, 4, 5].map((r) => sheet.getCell(r, 1).value)).toEqual([p.ann.id, p.bob.id, p.cy.id, p.dee.id]);
    sheet.getCell(2, 2).value = `${p.w} Anne`;
    sheet.getCell(3, 3).value = `bob.new.${p.w}@example.com`;
    sheet.getCell(5, 3).value = p.outsider.email;
    for (const [id, name, email] of await addedLines(p)) {
      // An id typed into a cell is a number; one that is not a number stays text.
      sheet.addRow([id === '' ? null : /^\d+$/.test(id as string) ? Number(id) : id, name, email]);
    }
    const saved = Buffer.from(await book.xlsx.writeBuffer());
    await roundTrip(p, saved, XLSX);
  });
});
