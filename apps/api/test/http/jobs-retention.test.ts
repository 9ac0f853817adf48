import { QueryTypes } from 'sequelize';
import { describe, expect, it, vi } from 'vitest';
import { pruneFinishedJobs } from '../../src/jobs/job-prune.js';
import { insertJob } from '../../src/jobs/job-store.js';
import { jobsBed } from '../support/jobs-bed.js';

// How long a finished job and its records are kept, and how a big one's are deleted.
const bed = jobsBed();
const { cohort } = bed;

describe('retention', () => {
  it('prunes finished jobs and their reports past the retention, never a queued one', async () => {
    const { word } = await cohort(1);
    const submit = async () =>
      (await bed.admin.post('/api/users/bulk', { operation: 'delete', selection: { query: { q: word } } })).json().job
        .id as number;
    const finished = await submit();
    const queued = await submit();
    await bed.admin.post(`/api/jobs/${finished}/cancel`);
    await bed.t.db.sequelize.query(
      "INSERT INTO job_items (job_id, user_id, email, outcome, code, message) VALUES (?, NULL, 'x@example.com', 'skipped', 'NOT_FOUND', 'gone')",
      { replacements: [finished] },
    );
    const old = new Date(Date.now() - 40 * 86_400_000);
    await bed.t.db.models.Job.update({ created_at: old }, { where: { id: [finished, queued] } });
    await bed.t.db.sequelize.query('UPDATE jobs SET finished_at = ? WHERE id = ?', {
      replacements: [
        bed.t.db.dialect === 'mysql' ? old.toISOString().replace('T', ' ').replace('Z', '') : old,
        finished,
      ],
    });
    expect(await pruneFinishedJobs(bed.t.db, new Date(Date.now() - 30 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect((await bed.admin.get(`/api/jobs/${finished}`)).statusCode).toBe(404);
    expect((await bed.admin.get(`/api/jobs/${queued}`)).json().item.status).toBe('queued');
    const [items] = await bed.t.db.sequelize.query('SELECT COUNT(*) AS n FROM job_items WHERE job_id = ?', {
      replacements: [finished],
    });
    expect(Number((items as Array<{ n: number }>)[0]?.n)).toBe(0);
    await bed.admin.post(`/api/jobs/${queued}/cancel`);
  });

  it("deletes a big job's records a batch of rows per statement, every row of them, then the job", async () => {
    const db = bed.t.db;
    const sqlDate = (d: Date) => (db.dialect === 'mysql' ? d.toISOString().replace('T', ' ').replace('Z', '') : d);
    /** A finished job with `n` rows in each of its records, finished at `at`. */
    const jobWithRecords = async (n: number, at: Date) => {
      const id = await insertJob(db, null, {
        kind: 'bulk',
        operation: 'setActive',
        params: {},
        dryRun: false,
        total: n,
        actorId: bed.adminId,
        via: null,
        ip: null,
        requestId: null,
      });
      await db.sequelize.query("UPDATE jobs SET status = 'succeeded', finished_at = ? WHERE id = ?", {
        replacements: [sqlDate(at), id],
      });
      for (let user = 1; user <= n; user++) {
        await db.sequelize.query(
          "INSERT INTO job_changes (job_id, user_id, version, changed_from, changed_to) VALUES (?, ?, 1, '{}', '{}')",
          { replacements: [id, user] },
        );
        await db.sequelize.query(
          "INSERT INTO job_items (job_id, user_id, email, outcome, code, message) VALUES (?, ?, 'x@example.com', 'skipped', 'NOT_FOUND', 'gone')",
          { replacements: [id, user] },
        );
        await db.sequelize.query(
          "INSERT INTO import_changes (job_id, user_id, `change`, line, lock_version) VALUES (?, ?, 'created', ?, 1)",
          { replacements: [id, user, user + 1] },
        );
      }
      return id;
    };
    const rowsOf = async (id: number) => {
      const counts: number[] = [];
      for (const table of ['job_changes', 'job_items', 'import_changes']) {
        const [row] = await db.sequelize.query<{ n: number | string }>(
          `SELECT COUNT(*) AS n FROM ${table} WHERE job_id = ?`,
          { replacements: [id], type: QueryTypes.SELECT },
        );
        counts.push(Number(row?.n));
      }
      return counts;
    };
    const old = new Date(Date.now() - 40 * 86_400_000);
    const big = await jobWithRecords(11, old);
    const recent = await jobWithRecords(2, new Date());

    const statements: string[] = [];
    const query = db.sequelize.query.bind(db.sequelize);
    const spy = vi.spyOn(db.sequelize, 'query').mockImplementation(((sql: unknown, options: unknown) => {
      if (typeof sql === 'string' && sql.startsWith('DELETE')) statements.push(sql);
      return query(sql as string, options as never);
    }) as typeof db.sequelize.query);
    try {
      expect(await pruneFinishedJobs(db, new Date(Date.now() - 30 * 86_400_000), { rows: 4 })).toBe(1);
    } finally {
      spy.mockRestore();
    }
    // 11 rows, 4 per statement: three statements per record table, and none holds more.
    for (const table of ['job_changes', 'job_items', 'import_changes']) {
      expect(statements.filter((s) => s.startsWith(`DELETE FROM ${table} `)).length, table).toBe(3);
    }
    expect(await rowsOf(big)).toEqual([0, 0, 0]);
    expect((await bed.admin.get(`/api/jobs/${big}`)).statusCode).toBe(404);
    expect(await rowsOf(recent)).toEqual([2, 2, 2]);
    expect((await bed.admin.get(`/api/jobs/${recent}`)).statusCode).toBe(200);
  });
});
