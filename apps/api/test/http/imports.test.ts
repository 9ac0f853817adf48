import type { Job, JobShow } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { auditRows, expectStatsFresh, jobsBed } from '../support/jobs-bed.js';

const bed = jobsBed();

let counter = 0;
/** A fresh word, so each test's e-mails are its own. */
const fresh = () => `imp${++counter}x${process.pid}`;

const csv = (lines: string[]) => `${lines.join('\r\n')}\r\n`;

function upload(body: string | Buffer, query = '', type = 'text/csv', headers: Record<string, string> = {}) {
  return bed.t.app.inject({
    method: 'POST',
    url: `/api/users/imports${query ? `?${query}` : ''}`,
    headers: { authorization: `Bearer ${bed.adminToken}`, 'content-type': type, ...headers },
    payload: body,
  });
}

async function importAndWait(body: string, query = '') {
  bed.runner(50);
  const res = await upload(body, query);
  expect(res.statusCode, res.body).toBe(202);
  const { job } = res.json() as { job: Job };
  const done = await bed.waitForJob(job.id);
  const shown = (await bed.admin.get(`/api/jobs/${job.id}`)).json() as JobShow;
  return { submitted: job, job: done, problems: shown.problems };
}

async function usersByEmail(emails: string[]) {
  return bed.t.db.sequelize.query<{
    id: number;
    name: string;
    email: string;
    is_active: number;
    external_id: string | null;
  }>('SELECT id, name, email, is_active, external_id FROM users WHERE email IN (:emails) ORDER BY email', {
    replacements: { emails },
    type: QueryTypes.SELECT,
  });
}

describe('POST /users/imports: a CSV file', () => {
  it('creates the users of a file, with their roles, audited, and reports each line it left', async () => {
    const w = fresh();
    const file = csv([
      'Name;E-Mail;Roles;Active',
      `Zoë Ærø;zoe.${w}@example.com;viewer;yes`,
      `Émile Dupont;EMILE.${w}@Example.com;;no`,
      `Bad Address;not-an-email;;`,
      `Twice;zoe.${w}@example.com;;`,
      `Nobody Role;nr.${w}@example.com;ghost;`,
    ]);
    const { submitted, job, problems } = await importAndWait(file);
    expect(submitted).toMatchObject({ kind: 'import', operation: 'create', dryRun: false });
    expect(submitted.import?.file).toMatchObject({ format: 'csv', delimiter: ';', rows: 5 });
    expect(submitted.import?.file.columns.map((c) => c.field)).toEqual(['name', 'email', 'roles', 'is_active']);
    expect(job.status).toBe('succeeded');
    expect(job.import?.outcomes).toEqual({ create: 2, update: 0, unchanged: 0, skip: 1, error: 2 });
    expect(job.progress).toMatchObject({ total: 5, processed: 5, changed: 2, skipped: 1, failed: 2 });
    expect(problems.map((p) => [p.line, p.code])).toEqual([
      [4, 'INVALID_EMAIL'],
      [5, 'DUPLICATE_IN_FILE'],
      [6, 'UNKNOWN_ROLE'],
    ]);
    const users = await usersByEmail([`zoe.${w}@example.com`, `emile.${w}@example.com`]);
    expect(users.map((u) => [u.name, u.email, Boolean(u.is_active)])).toEqual([
      [`Émile Dupont`, `emile.${w}@example.com`, false],
      [`Zoë Ærø`, `zoe.${w}@example.com`, true],
    ]);
    // One audit row per new account, with its values and its line.
    const created = (await auditRows(bed.t.db, 'user.create')).filter((r) => r.context?.job_id === job.id);
    expect(created.flatMap((r) => r.targets).sort()).toEqual(users.map((u) => u.id).sort());
    const zoe = created.find((r) => r.context.line === 2);
    expect(zoe?.changes).toMatchObject({
      name: { before: null, after: 'Zoë Ærø' },
      is_active: { before: null, after: true },
      roles: { before: null, after: ['viewer'] },
    });
    // The account's history starts with its creation by the import, through the audit API.
    const zoeId = zoe?.targets[0] as number;
    const history = await bed.admin.get(`/api/audit?filters[target_id]=${zoeId}`);
    expect(history.statusCode).toBe(200);
    expect(history.json().rows.map((r: { action: string }) => r.action)).toEqual(['user.create']);
    await expectStatsFresh(bed.t.db);
  });

  it('judges every line in a dry run and writes nothing', async () => {
    const w = fresh();
    const { job, problems } = await importAndWait(
      csv(['name,email', `Dry One,dry1.${w}@example.com`, `Dry Two,dry2.${w}@example.com`, ',x@']),
      'dryRun=true',
    );
    expect(job).toMatchObject({ status: 'succeeded', dryRun: true });
    expect(job.import?.outcomes).toMatchObject({ create: 2, error: 1 });
    expect(problems).toHaveLength(1);
    expect(await usersByEmail([`dry1.${w}@example.com`, `dry2.${w}@example.com`])).toEqual([]);
  });

  it('updates in upsert mode, and the same file again changes nothing', async () => {
    const w = fresh();
    await given(bed.t.db).user({ name: 'Old Name', email: `up.${w}@example.com` });
    const file = csv([
      'email,name,external_id',
      `up.${w}@example.com,New Name,ext-${w}`,
      `new.${w}@example.com,New Person,`,
    ]);
    const first = await importAndWait(file, 'mode=upsert');
    expect(first.job.import?.outcomes).toMatchObject({ create: 1, update: 1 });
    expect(first.job.import?.fields).toEqual({ name: 1, external_id: 1 });
    const [updated] = await usersByEmail([`up.${w}@example.com`]);
    expect(updated).toMatchObject({ name: 'New Name', external_id: `ext-${w}` });
    const again = await importAndWait(file, 'mode=upsert');
    expect(again.job.import?.outcomes).toMatchObject({ create: 0, update: 0, unchanged: 2 });
    expect(again.job.progress.changed).toBe(0);
  });

  it('skips existing e-mails in create mode and deleted users unless asked to restore them', async () => {
    const w = fresh();
    await given(bed.t.db).user({ name: 'Taken', email: `taken.${w}@example.com` });
    const gone = await given(bed.t.db).user({
      name: 'Gone',
      email: `gone.${w}@example.com`,
      active: false,
      deleted: true,
    });
    const file = csv(['name,email', `Taken,taken.${w}@example.com`, `Gone,gone.${w}@example.com`]);
    const { problems } = await importAndWait(file);
    expect(problems.map((p) => p.code)).toEqual(['EMAIL_TAKEN', 'USER_DELETED']);
    const restored = await importAndWait(
      csv(['name,email', `Gone Again,gone.${w}@example.com`]),
      'mode=upsert&restore=true',
    );
    expect(restored.job.import?.outcomes).toMatchObject({ update: 1 });
    const row = await bed.t.db.models.User.findByPk(gone.id, { paranoid: false });
    expect(row?.deleted_at).toBeNull();
    expect(row?.name).toBe('Gone Again');
    await expectStatsFresh(bed.t.db);
  });
});

describe('POST /users/imports: refusals', () => {
  it('answers 401 without credentials and 403 without users.create or, for upsert, users.update', async () => {
    const anonymous = await bed.t.app.inject({ method: 'POST', url: '/api/users/imports', payload: 'email\n' });
    expect(anonymous.statusCode).toBe(401);
    const creator = await given(bed.t.db).user({ permissions: ['users.create'] });
    const viewer = await given(bed.t.db).user({ permissions: ['users.view'] });
    const as = async (userId: number, query: string) =>
      bed.t.app.inject({
        method: 'POST',
        url: `/api/users/imports?${query}`,
        headers: { authorization: `Bearer ${await given(bed.t.db).token(userId)}`, 'content-type': 'text/csv' },
        payload: 'email\nx@example.com\n',
      });
    expect((await as(viewer.id, 'mode=create')).statusCode).toBe(403);
    const upsert = await as(creator.id, 'mode=upsert');
    expect(upsert.statusCode).toBe(403);
    expect(upsert.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.update' });
  });

  it('refuses a file without an e-mail column, an unknown media type and an empty file, and stages nothing', async () => {
    const before = await stagedUploads();
    const noEmail = await upload(csv(['name,phone', 'A,1']));
    expect(noEmail.statusCode).toBe(422);
    expect(noEmail.json().errors.file[0]).toMatch(/No column holds the e-mail addresses/);
    // It says how it read the file, so the sender can name the e-mail column and send it again.
    expect(noEmail.json().file).toMatchObject({
      format: 'csv',
      columns: [
        { header: 'name', field: 'name' },
        { header: 'phone', field: null },
      ],
      unknown: ['phone'],
      sample: [['A', '1']],
    });
    expect((await upload('%PDF-1.7', '', 'application/pdf')).statusCode).toBe(415);
    expect((await upload('', '')).statusCode).toBe(422);
    expect(await stagedUploads()).toBe(before);
  });

  it('answers the first job for a retried upload with the same Idempotency-Key', async () => {
    const w = fresh();
    const file = csv(['name,email', `Once,once.${w}@example.com`]);
    const key = { 'idempotency-key': `key-${w}` };
    const first = await upload(file, 'dryRun=true', 'text/csv', key);
    const second = await upload(file, 'dryRun=true', 'text/csv', key);
    expect(first.statusCode).toBe(202);
    expect(second.statusCode).toBe(202);
    expect(second.json().job.id).toBe(first.json().job.id);
  });
});

async function stagedUploads(): Promise<number> {
  const [row] = await bed.t.db.sequelize.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM import_uploads', {
    type: QueryTypes.SELECT,
  });
  return Number(row?.n);
}

describe('POST /users/imports: multipart', () => {
  it('takes the file from the field "file" of a form, with its name', async () => {
    const w = fresh();
    const boundary = `----form${w}`;
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="note"',
      '',
      'ignored',
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="people.csv"',
      'Content-Type: text/csv',
      '',
      `name,email\r\nForm Person,form.${w}@example.com`,
      `--${boundary}--`,
      '',
    ].join('\r\n');
    bed.runner(50);
    const res = await upload(body, '', `multipart/form-data; boundary=${boundary}`);
    expect(res.statusCode, res.body).toBe(202);
    const job = await bed.waitForJob(res.json().job.id);
    expect(job.import?.file).toMatchObject({ name: 'people.csv', format: 'csv', rows: 1 });
    expect(await usersByEmail([`form.${w}@example.com`])).toHaveLength(1);
  });
});

describe('the token door', () => {
  it('records the import as its submitter through the token', async () => {
    const w = fresh();
    const { job } = await importAndWait(csv(['name,email', `Via Token,via.${w}@example.com`]));
    expect(job.via.kind).toBe('token');
  });
});

describe('POST /jobs/{id}/undo', () => {
  it('removes the accounts an import created and puts back those it updated, except those changed since', async () => {
    const w = fresh();
    const kept = await given(bed.t.db).user({ name: 'Kept Name', email: `kept.${w}@example.com` });
    const file = csv([
      'name,email,active',
      `Kept Renamed,kept.${w}@example.com,`,
      `Made One,made1.${w}@example.com,`,
      `Made Two,made2.${w}@example.com,`,
    ]);
    const { job } = await importAndWait(file, 'mode=upsert');
    expect(job.import?.outcomes).toMatchObject({ create: 2, update: 1 });
    expect(job.undo?.until).not.toBeNull();
    // Someone edits one of the new accounts after the import: the undo leaves it alone.
    const [made2] = await usersByEmail([`made2.${w}@example.com`]);
    await bed.t.db.sequelize.query('UPDATE users SET name = :name, lock_version = lock_version + 1 WHERE id = :id', {
      replacements: { name: 'Edited Later', id: made2?.id },
    });
    const res = await bed.admin.post(`/api/jobs/${job.id}/undo`);
    expect(res.statusCode, res.body).toBe(202);
    const undo = await bed.waitForJob(res.json().job.id);
    expect(undo).toMatchObject({ kind: 'undo', status: 'succeeded', undo: { of: job.id } });
    expect(undo.progress).toMatchObject({ processed: 3, changed: 2, skipped: 1 });
    expect(undo.counts).toEqual({ CHANGED_SINCE: 1 });
    const [made1] = await usersByEmail([`made1.${w}@example.com`]);
    const removed = await bed.t.db.models.User.findByPk(made1?.id, { paranoid: false });
    expect(removed?.deleted_at).not.toBeNull();
    expect(removed?.is_active).toBe(false);
    expect((await bed.t.db.models.User.findByPk(kept.id))?.name).toBe('Kept Name');
    expect((await bed.t.db.models.User.findByPk(made2?.id as number))?.name).toBe('Edited Later');
    await expectStatsFresh(bed.t.db);
    // Once is enough: the import now names its undo, and a second undo is refused.
    expect((await bed.admin.get(`/api/jobs/${job.id}`)).json().item.undo.by).toBe(undo.id);
    const again = await bed.admin.post(`/api/jobs/${job.id}/undo`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'NOT_UNDOABLE' });
  });

  it('judges the undo first in a dry run, as the undo then decides, changing nothing and keeping the undo', async () => {
    const w = fresh();
    const kept = await given(bed.t.db).user({ name: 'Old Name', email: `old.${w}@example.com` });
    const file = csv([
      'name,email',
      `New Name,old.${w}@example.com`,
      `Made One,made1.${w}@example.com`,
      `Made Two,made2.${w}@example.com`,
      `Made Three,made3.${w}@example.com`,
    ]);
    const { job } = await importAndWait(file, 'mode=upsert');
    expect(job.import?.outcomes).toMatchObject({ create: 3, update: 1 });
    const [made3] = await usersByEmail([`made3.${w}@example.com`]);
    await bed.t.db.sequelize.query('UPDATE users SET name = :name, lock_version = lock_version + 1 WHERE id = :id', {
      replacements: { name: 'Edited Later', id: made3?.id },
    });
    const before = await usersByEmail([`old.${w}@example.com`, `made1.${w}@example.com`, `made2.${w}@example.com`]);

    const dry = await bed.admin.post(`/api/jobs/${job.id}/undo`, { dryRun: true });
    expect(dry.statusCode, dry.body).toBe(202);
    expect(dry.json().job).toMatchObject({ kind: 'undo', dryRun: true, undo: { of: job.id } });
    const judged = await bed.waitForJob(dry.json().job.id);
    expect(judged).toMatchObject({
      status: 'succeeded',
      progress: { total: 4, processed: 4, changed: 3, skipped: 1 },
      counts: { CHANGED_SINCE: 1 },
      undo: { of: job.id, accounts: { removed: 2, restored: 1 } },
    });
    // Who would be left, and why, as the job's page shows it.
    const shown = (await bed.admin.get(`/api/jobs/${judged.id}`)).json() as JobShow;
    expect(shown.examples.CHANGED_SINCE).toEqual([
      expect.objectContaining({ id: made3?.id, email: `made3.${w}@example.com` }),
    ]);
    // Nothing changed, and the undo is still there to be asked for.
    expect(await usersByEmail([`old.${w}@example.com`, `made1.${w}@example.com`, `made2.${w}@example.com`])).toEqual(
      before,
    );
    expect((await bed.t.db.models.User.findByPk(kept.id))?.name).toBe('New Name');
    expect((await bed.admin.get(`/api/jobs/${job.id}`)).json().item.undo).toMatchObject({ by: null });

    const real = await bed.admin.post(`/api/jobs/${job.id}/undo`, { dryRun: false });
    expect(real.statusCode, real.body).toBe(202);
    const undone = await bed.waitForJob(real.json().job.id);
    expect(undone).toMatchObject({
      dryRun: false,
      status: 'succeeded',
      progress: judged.progress,
      counts: judged.counts,
      undo: { accounts: { removed: 2, restored: 1 } },
    });
    expect((await bed.t.db.models.User.findByPk(kept.id))?.name).toBe('Old Name');
    // The accounts it created are in the trash.
    expect(
      await bed.t.db.models.User.count({ where: { email: [`made1.${w}@example.com`, `made2.${w}@example.com`] } }),
    ).toBe(0);
    // Once undone, not even a dry run is offered.
    const again = await bed.admin.post(`/api/jobs/${job.id}/undo`, { dryRun: true });
    expect(again.statusCode).toBe(409);
  });

  it('refuses to undo a dry run, a bulk job and a job the caller cannot see', async () => {
    const w = fresh();
    const { job } = await importAndWait(csv(['name,email', `Dry,dry.${w}@example.com`]), 'dryRun=true');
    expect((await bed.admin.post(`/api/jobs/${job.id}/undo`)).json()).toMatchObject({ code: 'NOT_UNDOABLE' });
    const stranger = await given(bed.t.db).user({ permissions: ['users.delete', 'users.update'] });
    const res = await bed.t.app.inject({
      method: 'POST',
      url: `/api/jobs/${job.id}/undo`,
      headers: { authorization: `Bearer ${await given(bed.t.db).token(stranger.id)}` },
    });
    expect(res.statusCode).toBe(404);
  });
});
