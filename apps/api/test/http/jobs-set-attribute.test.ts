import { beforeAll, describe, expect, it } from 'vitest';
import { jobsBed } from '../support/jobs-bed.js';

// A setAttribute job names its attribute (issue 38): the jobs list and page say "Set Department",
// not "Background job", from the label kept when the job was submitted.
const bed = jobsBed();
const { runner, cohort, waitForJob } = bed;

beforeAll(async () => {
  const res = await bed.admin.post('/api/attributes', {
    key: 'department',
    label: 'Department',
    type: 'enum',
    values: ['Sales', 'Support'],
  });
  expect(res.statusCode).toBe(201);
});

describe('a setAttribute job', () => {
  it('carries its attribute by key and label, as submitted, on the answer, the job page and the list', async () => {
    const { word } = await cohort(2);
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'department',
      value: 'Sales',
      selection: { query: { q: word } },
    });
    expect(res.statusCode).toBe(202);
    const attribute = { key: 'department', label: 'Department' };
    expect(res.json().job).toMatchObject({ operation: 'setAttribute', attribute, role: null });
    // A later change of label does not rename what was done.
    const put = await bed.admin.put('/api/attributes/department', {
      label: 'Team',
      type: 'enum',
      values: ['Sales', 'Support'],
    });
    expect(put.statusCode).toBe(200);
    runner(2);
    const done = await waitForJob(res.json().job.id);
    expect(done).toMatchObject({ status: 'succeeded', attribute });
    expect((await bed.admin.get(`/api/jobs/${done.id}`)).json().item).toMatchObject({ attribute });
    const listed = (await bed.admin.get('/api/jobs')).json().rows.find((j: { id: number }) => j.id === done.id);
    expect(listed).toMatchObject({ attribute });
  });

  it('has no attribute for other operations', async () => {
    const { word } = await cohort(1);
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      selection: { query: { q: word } },
    });
    expect(res.json().job).toMatchObject({ operation: 'setActive', attribute: null });
  });
});
