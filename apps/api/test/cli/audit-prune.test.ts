import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChange } from '../../src/journal/journal.js';
import { runCli } from '../../src/cli/run-cli.js';
import type { Database } from '../../src/db/database.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

let target: TestDatabaseTarget;
let db: Database;

async function cli(env: Record<string, string>, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    { ...target.env, LOG_LEVEL: 'silent', ...env },
    {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const DAY = 86_400_000;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
  // 40 events a day for the last 100 days, each naming two users.
  for (let day = 0; day < 100; day += 1) {
    for (let i = 0; i < 40; i += 1) {
      await recordChange(db, null, {
        actorId: 1,
        action: 'user.update',
        targetType: 'user',
        targetIds: [day + 1, 1_000 + i],
      });
    }
  }
  const events = await db.models.AuditLog.findAll({ attributes: ['id'], order: [['id', 'ASC']] });
  for (const [i, event] of events.entries()) {
    await db.models.AuditLog.update(
      { created_at: new Date(Date.now() - (99 - Math.floor(i / 40)) * DAY - 60_000) },
      { where: { id: event.id } },
    );
  }
}, 120_000);
afterAll(async () => {
  await db.close();
  await target.drop();
});

const count = async (sql: string) =>
  Number((await db.sequelize.query<{ n: number | string }>(sql, { type: QueryTypes.SELECT }))[0]?.n);

describe('npm run cli -- audit:prune', () => {
  it('refuses to guess a retention when none is configured or given', async () => {
    const res = await cli({}, 'audit:prune');
    expect(res).toMatchObject({ code: 1, err: expect.stringContaining('Set AUDIT_RETENTION_DAYS or pass --days N') });
    expect(await count('SELECT COUNT(*) AS n FROM audit_logs')).toBe(4_000);
  });

  it('deletes the events older than AUDIT_RETENTION_DAYS with their targets, and records the prune', async () => {
    const res = await cli({ AUDIT_RETENTION_DAYS: '30' }, 'audit:prune');
    expect(res.code).toBe(0);
    // Days 0–29 are kept (30 days × 40 events); the prune's own event joins them.
    expect(res.out).toMatch(/^Deleted 2,800 audit event\(s\) from before .* \(kept 30 day\(s\)\)\.$/);
    expect(await count("SELECT COUNT(*) AS n FROM audit_logs WHERE action = 'user.update'")).toBe(1_200);
    expect(await count('SELECT COUNT(*) AS n FROM audit_targets')).toBe(2_400);
    expect(
      await count('SELECT COUNT(*) AS n FROM audit_targets WHERE audit_id NOT IN (SELECT id FROM audit_logs)'),
    ).toBe(0);
    const prune = await db.models.AuditLog.findOne({ where: { action: 'audit.prune' } });
    expect(prune?.actor_id).toBeNull();
    expect(prune?.via).toBe('cli');
    expect(prune?.context).toMatchObject({ source: 'cli', days: 30, deleted: 2_800 });
  });

  it('takes --days over the configured retention, and refuses a bad number', async () => {
    expect((await cli({ AUDIT_RETENTION_DAYS: '30' }, 'audit:prune', '--days', '10')).out).toMatch(/^Deleted 800 /);
    expect(await count("SELECT COUNT(*) AS n FROM audit_logs WHERE action = 'user.update'")).toBe(400);
    expect((await cli({}, 'audit:prune', '--days', '0')).code).toBe(1);
  });
});
