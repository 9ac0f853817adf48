import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { migrate, pendingMigrations } from '../../src/db/migrations/migrator.js';
import { writeTransaction } from '../../src/db/transaction.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

let target: TestDatabaseTarget;
let db: Database;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target, { migrated: false });
});
afterAll(async () => {
  await db.close();
  await target.drop();
});

async function tables(): Promise<string[]> {
  if (db.dialect === 'sqlite') {
    const rows = await db.sequelize.query<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
      { type: QueryTypes.SELECT },
    );
    return rows.map((r) => r.name).sort();
  }
  const rows = await db.sequelize.query<{ name: string }>(
    'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
    { type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.name).sort();
}

/** An index's columns, in order. */
async function indexColumns(index: string, table = 'users'): Promise<string[]> {
  if (db.dialect === 'sqlite') {
    const rows = await db.sequelize.query<{ name: string }>(
      `SELECT name FROM pragma_index_info('${index}') ORDER BY seqno`,
      {
        type: QueryTypes.SELECT,
      },
    );
    return rows.map((r) => r.name);
  }
  const rows = await db.sequelize.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.statistics
      WHERE table_schema = DATABASE() AND table_name = :table AND index_name = :index ORDER BY seq_in_index`,
    { replacements: { index, table }, type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.name);
}

async function userIndexes(): Promise<string[]> {
  if (db.dialect === 'sqlite') {
    const rows = await db.sequelize.query<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'users'",
      {
        type: QueryTypes.SELECT,
      },
    );
    return rows.map((r) => r.name);
  }
  const rows = await db.sequelize.query<{ name: string }>(
    "SELECT DISTINCT index_name AS name FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'users'",
    { type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.name);
}

describe('migrations', () => {
  it('create every table of the product on an empty database', async () => {
    expect(await pendingMigrations(db)).toEqual(MIGRATIONS.map((m) => m.name));
    await migrate(db);
    expect(await tables()).toEqual(
      [
        'api_tokens',
        // Custom attributes (migration 0023): the declared schema and the users' typed values.
        'attributes',
        'audit_attributes',
        'audit_logs',
        'audit_targets',
        'auth_providers',
        // Idempotency-Keys held by uploads still being read (migration 0017).
        'idempotency_claims',
        // Imports (migration 0014): the undo record, the staged lines and their uploads.
        'import_changes',
        'import_rows',
        'import_uploads',
        // Background jobs (migration 0012) and their reports; the users each changed (0032).
        'job_changes',
        'job_items',
        'jobs',
        // Outgoing mail (migration 0018): the outbox the senders send from.
        'mail_outbox',
        'permissions',
        'rate_limits',
        // Striped member counts per role (migration 0015), kept by triggers.
        'role_member_counts',
        'role_permissions',
        'roles',
        'schema_migrations',
        // Which custom attribute each SCIM enterprise field fills (migration 0029).
        'scim_enterprise_mappings',
        'sessions',
        'sso_attempts',
        // Two-factor sign-in (migration 0020): recovery codes (hashed), sign-ins awaiting their code.
        'two_factor_challenges',
        'two_factor_recovery_codes',
        'user_attribute_values',
        // The links mail carries (migration 0019): invitations and password resets, hashed.
        'user_links',
        'user_permissions',
        // Each role's list keys per enumeration value (migration 0036): what its counts read.
        'user_role_enum_keys',
        // Each role's list keys (migration 0034): what the role-filtered list reads.
        'user_role_keys',
        'user_roles',
        'user_stats',
        'users',
        // Webhooks (migration 0010): endpoints, the outbox, deliveries and their attempts.
        'webhook_attempts',
        'webhook_deliveries',
        'webhook_events',
        'webhooks',
        'write_locks',
        // The search index (migration 0007): a trigram table, or SQLite's FTS5 table and its shadows.
        ...(db.dialect === 'mysql'
          ? ['user_search_grams', 'user_search_positions']
          : [
              'user_search',
              'user_search_config',
              'user_search_data',
              'user_search_docsize',
              'user_search_idx',
              'user_search_vocab',
            ]),
      ].sort(),
    );
  });

  it('are idempotent: a second run applies nothing', async () => {
    expect(await migrate(db)).toEqual([]);
    expect(await pendingMigrations(db)).toEqual([]);
  });

  it('create the indexes the list queries rely on', async () => {
    expect(await userIndexes()).toEqual(
      expect.arrayContaining([
        'users_email_unique',
        'users_deleted_id',
        'users_deleted_name',
        'users_deleted_email',
        'users_deleted_active',
        'users_deleted_created',
      ]),
    );
  });

  it('carry the creation date in the name and e-mail sort indexes, so a date filter walks them without reading rows', async () => {
    expect(await indexColumns('users_deleted_name')).toEqual(['deleted_at', 'name', 'id', 'created_at']);
    expect(await indexColumns('users_deleted_email')).toEqual(['deleted_at', 'email', 'id', 'created_at']);
  });

  it('store the role list keys in role and date order on MariaDB, each membership once', async () => {
    // Migration 0038: a status-filtered count walks the rows themselves, never an index and a probe per entry.
    if (db.dialect !== 'mysql') return;
    const keys = ['PRIMARY', 'user_role_keys_member', 'user_role_keys_by_id', 'user_role_keys_by_name'];
    const columns = await Promise.all(keys.map((index) => indexColumns(index, 'user_role_keys')));
    expect(Object.fromEntries(keys.map((index, i) => [index, columns[i]]))).toEqual({
      PRIMARY: ['role_id', 'created_at', 'user_id'],
      user_role_keys_member: ['user_id', 'role_id'],
      user_role_keys_by_id: ['role_id', 'deleted_at', 'user_id', 'created_at'],
      user_role_keys_by_name: ['role_id', 'deleted_at', 'name', 'user_id', 'created_at'],
    });
    // The date index is the primary key now; the membership is unique.
    const [member] = await db.sequelize.query<{ unique: number | string }>(
      `SELECT MIN(non_unique = 0) AS \`unique\` FROM information_schema.statistics
        WHERE table_schema = DATABASE() AND table_name = 'user_role_keys' AND index_name = 'user_role_keys_member'`,
      { type: QueryTypes.SELECT },
    );
    expect(Number(member?.unique)).toBe(1);
    expect(await indexColumns('user_role_keys_by_created', 'user_role_keys')).toEqual([]);
  });

  it('refuses a second e-mail that differs only in case', async () => {
    const { User } = db.models;
    await User.create({ name: 'First', email: 'Case@Example.com', password_hash: '!' });
    await expect(User.create({ name: 'Second', email: 'case@example.COM', password_hash: '!' })).rejects.toThrow();
  });

  it('stores timestamps in UTC with milliseconds', async () => {
    const { User } = db.models;
    const at = new Date('2024-02-29T23:59:59.123Z');
    const user = await User.create({ name: 'Leap', email: 'leap@example.com', password_hash: '!', created_at: at });
    const again = await User.findByPk(user.id);
    expect(again?.created_at.toISOString()).toBe('2024-02-29T23:59:59.123Z');
  });

  it('stores names and e-mails in full Unicode (utf8mb4)', async () => {
    const { User } = db.models;
    const user = await User.create({ name: 'Zoë 🚀 Müller', email: 'zoe@example.com', password_hash: '!' });
    expect((await User.findByPk(user.id))?.name).toBe('Zoë 🚀 Müller');
  });

  it('keeps soft-deleted users out of default queries', async () => {
    const { User } = db.models;
    const user = await User.create({ name: 'Gone', email: 'gone@example.com', password_hash: '!', is_active: false });
    await user.destroy();
    expect(await User.findByPk(user.id)).toBeNull();
    expect(await User.findByPk(user.id, { paranoid: false })).not.toBeNull();
  });

  it('never selects the password hash unless asked by name', async () => {
    const { User } = db.models;
    const user = await User.findOne({ where: { email: 'leap@example.com' } });
    expect(user?.get()).not.toHaveProperty('password_hash');
    const withHash = await User.scope('withPassword').findOne({ where: { email: 'leap@example.com' } });
    expect(withHash?.password_hash).toBe('!');
  });
});

describe('write transactions', () => {
  it.runIf(process.env.TEST_DB === 'mysql')(
    'run at READ COMMITTED on every pooled connection, without a statement of their own',
    async () => {
      const levels = await Promise.all(
        Array.from({ length: 3 }, () =>
          writeTransaction(db, async (tx) => {
            const [row] = await db.sequelize.query<{ level: string }>('SELECT @@tx_isolation AS level', {
              type: QueryTypes.SELECT,
              transaction: tx,
            });
            return row?.level;
          }),
        ),
      );
      expect(levels).toEqual(['READ-COMMITTED', 'READ-COMMITTED', 'READ-COMMITTED']);
    },
  );
});
