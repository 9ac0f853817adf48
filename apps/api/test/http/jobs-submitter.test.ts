import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

type Caller = ReturnType<typeof request>;

let t: TestApp;
let admin: Caller;
let viewer: Caller;

/** Someone who may deactivate users but sees only their own jobs, with an API of their own. */
async function submitter(name: string) {
  const user = await given(t.db).user({ name, permissions: ['users.view', 'users.setActive'] });
  return { id: user.id, api: request(t.app, { token: await given(t.db).token(user.id) }) };
}

let counter = 0;
/**
 * A dry run over a fresh pair of users, submitted by `by`. No runner is started: the job stays
 * queued, which is all the list and the job's page need to show whose it is.
 */
async function submitJob(by: Caller): Promise<number> {
  counter += 1;
  const word = `Submitted${counter}x${process.pid}`;
  for (const i of [1, 2]) await given(t.db).user({ name: `${word} Member ${i}` });
  const res = await by.post('/api/users/bulk', {
    operation: 'setActive',
    active: false,
    dryRun: true,
    selection: { query: { q: word } },
  });
  expect(res.statusCode).toBe(202);
  return res.json().job.id;
}

async function listed(caller: Caller, id: number) {
  const res = await caller.get('/api/jobs?perPage=100&filters[dry_run]=true');
  expect(res.statusCode).toBe(200);
  return (res.json().rows as { id: number; submitted_by: unknown }[]).find((row) => row.id === id);
}

async function shown(caller: Caller, id: number) {
  const res = await caller.get(`/api/jobs/${id}`);
  expect(res.statusCode).toBe(200);
  return res.json().item;
}

beforeAll(async () => {
  t = await startTestApp();
  const adminId = (await given(t.db).user({ roles: ['admin'] })).id;
  admin = request(t.app, { token: await given(t.db).token(adminId) });
  const viewerId = (await given(t.db).user({ name: 'Vera Viewer', permissions: ['jobs.view'] })).id;
  viewer = request(t.app, { token: await given(t.db).token(viewerId) });
});
afterAll(() => t.close());

describe('who submitted a job', () => {
  it('is named to someone who sees every job, on the list and on the job itself', async () => {
    const sam = await submitter('Sam Submitter');
    const id = await submitJob(sam.api);
    const submittedBy = { id: sam.id, name: 'Sam Submitter' };
    expect(await listed(viewer, id)).toMatchObject({ actor_id: sam.id, submitted_by: submittedBy });
    expect(await shown(viewer, id)).toMatchObject({ actor_id: sam.id, submitted_by: submittedBy });
  });

  it('is the submitter themselves on their own jobs', async () => {
    const kim = await submitter('Kim Own');
    const id = await submitJob(kim.api);
    const rows = (await kim.api.get('/api/jobs?perPage=100&filters[dry_run]=true')).json().rows as {
      submitted_by: unknown;
    }[];
    // Without jobs.view the list holds only Kim's own jobs, each of them named as Kim's.
    expect(rows.map((row) => row.submitted_by)).toEqual([{ id: kim.id, name: 'Kim Own' }]);
    expect((await shown(kim.api, id)).submitted_by).toEqual({ id: kim.id, name: 'Kim Own' });
  });

  it('stays named while the submitter is in the trash, and is null once they are erased', async () => {
    const eve = await submitter('Eve Erased');
    const id = await submitJob(eve.api);
    expect((await admin.patch(`/api/users/${eve.id}/active`, { active: false })).statusCode).toBe(200);
    expect((await admin.delete(`/api/users/${eve.id}`)).statusCode).toBe(204);
    expect((await shown(viewer, id)).submitted_by).toEqual({ id: eve.id, name: 'Eve Erased' });

    expect((await admin.delete(`/api/users/${eve.id}/force`)).statusCode).toBe(204);
    // The job keeps the id it was submitted by (the audit trail speaks of it), but no name.
    expect(await listed(viewer, id)).toMatchObject({ actor_id: eve.id, submitted_by: null });
    expect(await shown(viewer, id)).toMatchObject({ actor_id: eve.id, submitted_by: null });
  });
});
