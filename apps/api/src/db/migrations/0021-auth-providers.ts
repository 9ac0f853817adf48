import { DataTypes, type QueryInterface, QueryTypes } from 'sequelize';
import type { Dialect } from '../dialect.js';
import type { Migration } from './migration.js';

/** This migration's own column types (frozen: see frozen-column-types.ts for why a copy). */
function columnTypes(dialect: Dialect) {
  const mysql = dialect === 'mysql';
  return {
    id: mysql ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER,
    date: mysql ? DataTypes.DATE(3) : DataTypes.DATE,
    hash: mysql ? 'CHAR(64) CHARACTER SET ascii COLLATE ascii_bin' : DataTypes.STRING(64),
  };
}

/**
 * Single sign-on with OpenID Connect.
 *
 * - `auth_providers`: one identity provider each: its issuer and the discovery document read when
 *   it was saved (`metadata`, so a sign-in does not fetch it again), the client id, the client
 *   secret sealed with SECRETS_KEY, the e-mail domains it may sign in, whether it creates accounts
 *   and with which roles (by name, as the administrator chose them).
 * - `sso_attempts`: a sign-in started and not yet come back: the state, nonce and PKCE verifier
 *   the callback checks, keyed by the SHA-256 of the random handle in the browser's cookie. In the
 *   database, so any instance behind a load balancer can take the callback; used once, deleted.
 * - the `auth.manage` permission, granted to the seeded `admin` role.
 */
export const authProviders: Migration = {
  name: '0021-auth-providers',
  async up({ qi, dialect }) {
    const t = columnTypes(dialect);
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {};
    await qi.createTable(
      'auth_providers',
      {
        id: { type: t.id, autoIncrement: true, primaryKey: true },
        name: { type: DataTypes.STRING(100), allowNull: false },
        issuer: { type: DataTypes.STRING(500), allowNull: false },
        metadata: { type: DataTypes.TEXT, allowNull: false },
        client_id: { type: DataTypes.STRING(255), allowNull: false },
        client_secret: { type: DataTypes.TEXT, allowNull: false },
        allowed_domains: { type: DataTypes.JSON, allowNull: false },
        create_users: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        default_roles: { type: DataTypes.JSON, allowNull: false },
        created_by: { type: t.id, allowNull: true },
        created_at: { type: t.date, allowNull: false },
        updated_at: { type: t.date, allowNull: false },
      },
      table,
    );
    await qi.createTable(
      'sso_attempts',
      {
        id: { type: t.id, autoIncrement: true, primaryKey: true },
        handle_hash: { type: t.hash, allowNull: false },
        provider_id: {
          type: t.id,
          allowNull: false,
          references: { model: 'auth_providers', key: 'id' },
          onDelete: 'CASCADE',
        },
        state: { type: DataTypes.STRING(64), allowNull: false },
        nonce: { type: DataTypes.STRING(64), allowNull: false },
        code_verifier: { type: DataTypes.STRING(128), allowNull: false },
        expires_at: { type: t.date, allowNull: false },
      },
      table,
    );
    await qi.addIndex('sso_attempts', ['handle_hash'], { name: 'sso_attempts_handle', unique: true });
    await qi.addIndex('sso_attempts', ['expires_at'], { name: 'sso_attempts_expiry' });
    await grant(qi, 'auth.manage');
  },
  async down({ qi }) {
    await qi.dropTable('sso_attempts');
    await qi.dropTable('auth_providers');
  },
};

/** Adds the permission where it is missing and grants it to the seeded `admin` role (as 0012 did). */
async function grant(qi: QueryInterface, name: string) {
  const seq = qi.sequelize;
  const now = new Date();
  const found = await seq.query<{ id: number }>('SELECT id FROM permissions WHERE name = :name', {
    replacements: { name },
    type: QueryTypes.SELECT,
  });
  if (found.length === 0) {
    await qi.bulkInsert('permissions', [{ name, guard_name: 'web', created_at: now, updated_at: now }]);
  }
  await seq.query(
    `INSERT INTO role_permissions (role_id, permission_id)
     SELECT r.id, p.id FROM roles r JOIN permissions p ON p.name = :name
      WHERE r.name = 'admin'
        AND NOT EXISTS (SELECT 1 FROM role_permissions rp WHERE rp.role_id = r.id AND rp.permission_id = p.id)`,
    { replacements: { name } },
  );
}
