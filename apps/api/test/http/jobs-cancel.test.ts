import {
  BULK_OPERATIONS,
  BULK_PERMISSIONS,
  IMPORT_MODES,
  JOB_KINDS,
  type Job,
  type JobKind,
  type Permission,
} from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { jobsBed } from '../support/jobs-bed.js';

/**
 * Who may cancel a job, for every kind and operation there is: its submitter; someone holding
 * jobs.view and every permission its submission needed; nobody else (404 without jobs.view — the
 * job is not theirs to know of — and 403 naming the permission lacking). The job's page offers
 * Cancel by the same rule (`item.actions.cancel`).
 */
const bed = jobsBed();

let counter = 0;
const fresh = () => `cancel${++counter}x${process.pid}`;

interface Case {
  name: string;
  needs: Permission[];
  submit(): Promise<number>;
}

const upload = (query: string, lines: string[]) =>
  bed.t.app.inject({
    method: 'POST',
    url: `/api/users/imports?${query}`,
    headers: { authorization: `Bearer ${bed.adminToken}`, 'content-type': 'text/csv' },
    payload: `${lines.join('\r\n')}\r\n`,
  });

async function submitted(res: { statusCode: number; body: string; json(): unknown }): Promise<number> {
  expect(res.statusCode, res.body).toBe(202);
  return (res.json() as { job: Job }).job.id;
}

/** An attribute for the setAttribute case, declared once. */
let teamKey: string | null = null;
async function teamAttribute(): Promise<{ attribute: string; value: string }> {
  if (!teamKey) {
    const res = await bed.admin.post('/api/attributes', {
      key: 'team',
      label: 'Team',
      type: 'string',
      sensitivity: 'none',
    });
    expect(res.statusCode, res.body).toBe(201);
    teamKey = 'team';
  }
  return { attribute: teamKey, value: 'Platform' };
}

const bulkCase = (operation: (typeof BULK_OPERATIONS)[number]): Case => ({
  name: `bulk ${operation}`,
  needs: [BULK_PERMISSIONS[operation]],
  async submit() {
    const { word } = await bed.cohort(1);
    const extra = operation === 'setActive' ? { active: false } : {};
    const role = ['addRole', 'removeRole'].includes(operation) ? { role_id: await viewerRoleId() } : {};
    const trash = ['restore', 'forceDelete'].includes(operation) ? { filters: { trashed: 'only' } } : {};
    const attribute = operation === 'setAttribute' ? await teamAttribute() : {};
    return submitted(
      await bed.admin.post('/api/users/bulk', {
        operation,
        ...extra,
        ...role,
        ...attribute,
        selection: { query: { q: word, ...trash } },
      }),
    );
  },
});

const importCase = (query: string, needs: Permission[]): Case => ({
  name: `import ${query}`,
  needs,
  async submit() {
    const word = fresh();
    return submitted(await upload(query, ['name,email', `A ${word},${word}@example.com`]));
  },
});

/** An import that created one account and updated another, run to its end, then its undo queued. */
const undoCase: Case = {
  name: 'undo of an import that created and updated accounts',
  needs: ['users.delete', 'users.update'],
  async submit() {
    const word = fresh();
    const existing = await given(bed.t.db).user({ email: `${word}-old@example.com`, name: `Old ${word}` });
    bed.runner(50);
    const importId = await submitted(
      await upload('mode=upsert', [
        'name,email',
        `New ${word},${word}-new@example.com`,
        `Renamed ${word},${existing.email}`,
      ]),
    );
    expect((await bed.waitForJob(importId)).progress.changed).toBe(2);
    await bed.stopRunners();
    return submitted(await bed.admin.post(`/api/jobs/${importId}/undo`, {}));
  },
};

const CASES: Record<JobKind, Case[]> = {
  bulk: BULK_OPERATIONS.map(bulkCase),
  import: [
    importCase('mode=create', ['users.create']),
    importCase('mode=upsert', ['users.create', 'users.update']),
    importCase('mode=create&activate=false', ['users.create', 'users.setActive']),
    importCase('mode=upsert&restore=true', ['users.create', 'users.update', 'users.restore']),
  ],
  undo: [undoCase],
};

let viewerRole = 0;
async function viewerRoleId() {
  viewerRole ||= (await bed.t.db.models.Role.findOne({ where: { name: 'viewer' } }))?.id ?? 0;
  return viewerRole;
}

/** A caller holding exactly `permissions` (through a role of its own). */
async function holding(permissions: Permission[]) {
  const g = given(bed.t.db);
  const role = fresh();
  await g.role(role, permissions);
  return request(bed.t.app, { token: await g.token((await g.user({ roles: [role] })).id) });
}

describe('the cancel rule covers every kind of job', () => {
  it('has a case for every kind, every bulk operation and every import mode', () => {
    expect(Object.keys(CASES).sort()).toEqual([...JOB_KINDS].sort());
    expect(CASES.bulk.map((c) => c.name)).toEqual(BULK_OPERATIONS.map((o) => `bulk ${o}`));
    for (const mode of IMPORT_MODES) expect(CASES.import.some((c) => c.name.includes(`mode=${mode}`))).toBe(true);
  });

  const all = Object.values(CASES).flat();
  it.each(all.map((c) => [c.name, c] as const))(
    '%s: submitter, jobs.view with and without its permissions, outsider',
    async (_, c) => {
      const id = await c.submit();
      const shown = (caller: ReturnType<typeof request>) => caller.get(`/api/jobs/${id}`);
      const cancel = (caller: ReturnType<typeof request>) => caller.post(`/api/jobs/${id}/cancel`);

      // Someone without jobs.view does not learn the job exists.
      const outsider = await holding(c.needs);
      expect((await shown(outsider)).statusCode).toBe(404);
      expect((await cancel(outsider)).statusCode).toBe(404);

      // jobs.view and every permission needed but one: refused, naming the one lacking, both on the page and the cancel.
      for (const missing of c.needs) {
        const lacking = await holding(['jobs.view', ...c.needs.filter((p) => p !== missing)]);
        const page = (await shown(lacking)).json();
        expect(page.item.actions.cancel).toEqual({
          allowed: false,
          code: 'FORBIDDEN',
          message: `You need the ${missing} permission to cancel this job.`,
        });
        const refused = await cancel(lacking);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', permission: missing });
      }

      // The submitter may; so may jobs.view with every permission its submission needed.
      expect((await shown(bed.admin)).json().item.actions.cancel).toEqual({ allowed: true });
      const permitted = await holding(['jobs.view', ...c.needs]);
      expect((await shown(permitted)).json().item.actions.cancel).toEqual({ allowed: true });
      const done = await cancel(permitted);
      expect(done.statusCode, done.body).toBe(200);
      expect(['cancelled', 'cancelling']).toContain(done.json().job.status);
    },
  );
});
