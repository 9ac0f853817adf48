import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createMigrator, migrate } from '../../src/db/migrations/migrator.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

let target: TestDatabaseTarget;
let db: Database;

/** Failed sign-ins as the login wrote them before 0011: whatever was typed as the e-mail. */
const TYPED = [
  'ann@example.com',
  'tr0ub4dor&3-horse',
  'correct horse battery staple',
  '',
  `${'a'.repeat(250)}@example.com`,
];
/** More rows than one batch of the migration, so its paging is exercised. */
const FILLER = 2_500;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target, { migrated: false });
  await migrate(db);
  await (await createMigrator(db)).down({ to: '0011-withhold-failed-login-emails' });
  const now = new Date();
  const row = (action: string, context: Record<string, unknown>) => ({
    action,
    target_ids: '[]',
    context: JSON.stringify(context),
    created_at: now,
  });
  const rows = [
    ...Array.from({ length: FILLER }, (_, i) => row('auth.loginFailed', { email: `user${i}@example.com` })),
    ...TYPED.map((email) => row('auth.loginFailed', { email, user_agent: 'curl/8' })),
    // Another action's context is not a sign-in's: left alone even when it holds an `email`.
    row('user.create', { email: 'not an address' }),
  ];
  for (let i = 0; i < rows.length; i += 1_000) {
    await db.sequelize.getQueryInterface().bulkInsert('audit_logs', rows.slice(i, i + 1_000));
  }
  await migrate(db);
}, 120_000);
afterAll(async () => {
  await db.close();
  await target.drop();
});

async function contexts(action: string): Promise<Record<string, unknown>[]> {
  const rows = await db.sequelize.query<{ context: unknown }>(
    'SELECT context FROM audit_logs WHERE action = :action ORDER BY id',
    { replacements: { action }, type: QueryTypes.SELECT },
  );
  return rows.map((r) => (typeof r.context === 'string' ? JSON.parse(r.context) : r.context));
}

describe('migration 0011: failed sign-ins recorded before the login withheld what was not an e-mail', () => {
  it('withholds every typed value that is not a well-formed address, keeping the rest of the context', async () => {
    const recorded = (await contexts('auth.loginFailed')).slice(FILLER);
    expect(recorded).toEqual([
      { email: 'ann@example.com', user_agent: 'curl/8' },
      { email: null, email_withheld: true, user_agent: 'curl/8' },
      { email: null, email_withheld: true, user_agent: 'curl/8' },
      { email: null, email_withheld: true, user_agent: 'curl/8' },
      { email: null, email_withheld: true, user_agent: 'curl/8' },
    ]);
  });

  it('leaves well-formed addresses in every batch and other actions untouched', async () => {
    const filler = (await contexts('auth.loginFailed')).slice(0, FILLER);
    expect(filler.every((c, i) => c.email === `user${i}@example.com` && !('email_withheld' in c))).toBe(true);
    expect(await contexts('user.create')).toEqual([{ email: 'not an address' }]);
  });
});
