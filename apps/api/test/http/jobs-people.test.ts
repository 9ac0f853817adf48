import { JOB_CODE_SENTENCES, type Job } from '@app/contracts';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { jobsBed } from '../support/jobs-bed.js';

/**
 * A job's page and report name the users it reached (id, e-mail, the rule's own sentence) only to
 * a caller holding users.view; anyone else who may see the job reads codes, lines and counts, each
 * code in a sentence naming nobody.
 */
const bed = jobsBed();

async function watcher(permissions: string[]) {
  const g = given(bed.t.db);
  const role = `watch${Math.random().toString(36).slice(2, 8)}`;
  await g.role(role, permissions);
  return request(bed.t.app, { token: await g.token((await g.user({ roles: [role] })).id) });
}

describe('who a job names', () => {
  it('names the skipped users of a bulk job to users.view holders only, on its page and in its report', async () => {
    const { word } = await bed.cohort(2);
    // The job's submitter deletes active users: each is skipped as NOT_INACTIVE, named by the rule.
    const res = await bed.admin.post('/api/users/bulk', { operation: 'delete', selection: { query: { q: word } } });
    expect(res.statusCode).toBe(202);
    bed.runner(10);
    const done = await bed.waitForJob((res.json() as { job: Job }).job.id);
    expect(done.counts).toEqual({ NOT_INACTIVE: 2 });

    const seeing = await watcher(['jobs.view', 'users.view']);
    const page = (await seeing.get(`/api/jobs/${done.id}`)).json();
    expect(page.people).toEqual({ allowed: true });
    expect(page.examples.NOT_INACTIVE).toEqual([
      expect.objectContaining({ id: expect.any(Number), email: expect.stringContaining('@') }),
      expect.objectContaining({ id: expect.any(Number), email: expect.stringContaining('@') }),
    ]);

    const blind = await watcher(['jobs.view', 'users.delete']);
    const withheld = (await blind.get(`/api/jobs/${done.id}`)).json();
    expect(withheld.item.counts).toEqual({ NOT_INACTIVE: 2 });
    expect(withheld.people).toMatchObject({ allowed: false, code: 'FORBIDDEN' });
    expect(withheld.examples.NOT_INACTIVE).toEqual([
      { id: null, email: null, message: JOB_CODE_SENTENCES.NOT_INACTIVE },
      { id: null, email: null, message: JOB_CODE_SENTENCES.NOT_INACTIVE },
    ]);
    // The tRPC door answers the same.
    const input = encodeURIComponent(JSON.stringify({ id: done.id }));
    expect((await blind.get(`/api/trpc/jobs.show?input=${input}`)).json().result.data).toEqual(withheld);
    const json = (await blind.get(`/api/jobs/${done.id}/report?format=json`)).body;
    expect(json).not.toMatch(/@|Member/);
    const skip = { outcome: 'skipped', code: 'NOT_INACTIVE', message: JOB_CODE_SENTENCES.NOT_INACTIVE };
    expect(JSON.parse(json)).toEqual([
      { id: null, email: null, ...skip, before: null, after: null },
      { id: null, email: null, ...skip, before: null, after: null },
    ]);
    const csv = parse((await blind.get(`/api/jobs/${done.id}/report?format=csv`)).body, { columns: true, bom: true });
    expect(csv).toEqual([
      { id: '', email: '', ...skip, before: '', after: '' },
      { id: '', email: '', ...skip, before: '', after: '' },
    ]);
    const named = parse((await seeing.get(`/api/jobs/${done.id}/report?format=csv`)).body, {
      columns: true,
      bom: true,
    }) as Array<{ email: string }>;
    expect(named.map((r) => r.email.endsWith('@example.com'))).toEqual([true, true]);
  });

  it('reads an import’s own file back to its submitter without users.view, and nothing of it to others', async () => {
    const g = given(bed.t.db);
    const taken = await g.user({ email: `taken${process.pid}@example.com`, name: 'Taken Person' });
    await g.role('clerk', ['users.create']);
    const clerkToken = await g.token((await g.user({ roles: ['clerk'] })).id);
    const submitter = request(bed.t.app, { token: clerkToken });
    const res = await bed.t.app.inject({
      method: 'POST',
      url: '/api/users/imports?dryRun=true',
      headers: { authorization: `Bearer ${clerkToken}`, 'content-type': 'text/csv' },
      payload: `name,email\r\nSomeone,${taken.email}\r\nNobody,not-an-address\r\n`,
    });
    expect(res.statusCode, res.body).toBe(202);
    bed.runner(10);
    const done = await bed.waitForJob((res.json() as { job: Job }).job.id, submitter);
    // The submitter reads back what the file said; the account it met is described, not named.
    const own = (await submitter.get(`/api/jobs/${done.id}`)).json();
    expect(own.people).toMatchObject({ allowed: false, code: 'FORBIDDEN' });
    expect(own.item.import.file.sample).toEqual([
      ['Someone', taken.email],
      ['Nobody', 'not-an-address'],
    ]);
    expect(own.problems).toEqual([
      { line: 2, email: taken.email, code: 'EMAIL_TAKEN', message: JOB_CODE_SENTENCES.EMAIL_TAKEN },
      { line: 3, email: 'not-an-address', code: 'INVALID_EMAIL', message: expect.any(String) },
    ]);
    // Another clerk watching every job reads codes and lines alone, and not the file's rows.
    await g.role('watching-clerk', ['users.create', 'jobs.view']);
    const other = request(bed.t.app, { token: await g.token((await g.user({ roles: ['watching-clerk'] })).id) });
    const seen = (await other.get(`/api/jobs/${done.id}`)).json();
    expect(seen.item.import.file.sample).toEqual([]);
    expect(seen.problems).toEqual([
      { line: 2, email: null, code: 'EMAIL_TAKEN', message: JOB_CODE_SENTENCES.EMAIL_TAKEN },
      { line: 3, email: null, code: 'INVALID_EMAIL', message: JOB_CODE_SENTENCES.INVALID_EMAIL },
    ]);
    const listed = (await other.get('/api/jobs?perPage=100&filters[dry_run]=true')).json();
    expect(listed.rows.find((j: { id: number }) => j.id === done.id).import.file.sample).toEqual([]);
    expect((await other.get(`/api/jobs/${done.id}/report?format=json`)).body).not.toContain('@');
    // A users.view holder reads everything.
    const admin = (await bed.admin.get(`/api/jobs/${done.id}`)).json();
    expect(admin.problems.map((p: { email: string }) => p.email)).toEqual([taken.email, 'not-an-address']);
  });

  it('answers a bulk change over ids with the rules’ sentences naming the users to users.view holders only', async () => {
    const { ids } = await bed.cohort(2);
    const body = { operation: 'delete', ids, dryRun: true };
    const seeing = (await (await watcher(['users.delete', 'users.view'])).post('/api/users/bulk', body)).json();
    expect(seeing.skipped.map((s: { message: string }) => s.message)).toEqual([
      expect.stringContaining('Member'),
      expect.stringContaining('Member'),
    ]);
    const blind = (await (await watcher(['users.delete'])).post('/api/users/bulk', body)).json();
    expect(blind.skipped).toEqual(
      ids.map((id) => ({ id, code: 'NOT_INACTIVE', message: JOB_CODE_SENTENCES.NOT_INACTIVE })),
    );
  });
});
