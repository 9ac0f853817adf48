import { DataTypes } from 'sequelize';
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

const USER_COLUMNS = ['two_factor_secret', 'two_factor_enrolled_at', 'two_factor_last_step'] as const;

/**
 * Two-factor sign-in (TOTP, RFC 6238).
 *
 * - `users.two_factor_secret`: the TOTP secret, sealed with SECRETS_KEY. Set with
 *   `two_factor_enrolled_at` null while an enrolment waits for its confirmation code.
 * - `users.two_factor_last_step`: the time step of the last code accepted; a code of that step
 *   or an earlier one is refused, so a code works once.
 * - `two_factor_recovery_codes`: ten per enrolment, only their SHA-256 kept, each used once.
 * - `two_factor_challenges`: the sign-ins waiting for their second step. The key is the SHA-256
 *   of the cookie that binds the challenge to the client; it lives five minutes.
 * - `roles.require_two_factor`: members must have a second factor to use their session.
 * - `sessions.second_factor`: how the session's sign-in met a second factor (`totp`,
 *   `recovery`, `provider`), null when it did not.
 */
export const twoFactor: Migration = {
  name: '0020-two-factor',
  async up({ qi, dialect }) {
    const t = columnTypes(dialect);
    const mysql = dialect === 'mysql';
    const table = mysql ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {};
    const user = {
      type: t.id,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    } as const;
    await qi.addColumn('users', 'two_factor_secret', { type: DataTypes.STRING(255), allowNull: true });
    await qi.addColumn('users', 'two_factor_enrolled_at', { type: t.date, allowNull: true });
    await qi.addColumn('users', 'two_factor_last_step', { type: DataTypes.BIGINT, allowNull: true });
    await qi.createTable(
      'two_factor_recovery_codes',
      {
        id: { type: t.id, autoIncrement: true, primaryKey: true },
        user_id: user,
        code_hash: { type: t.hash, allowNull: false },
        used_at: { type: t.date, allowNull: true },
      },
      table,
    );
    await qi.addIndex('two_factor_recovery_codes', ['user_id', 'code_hash'], { name: 'recovery_codes_user_code' });
    await qi.createTable(
      'two_factor_challenges',
      {
        id: { type: t.hash, primaryKey: true },
        user_id: user,
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        created_at: { type: t.date, allowNull: false },
        expires_at: { type: t.date, allowNull: false },
      },
      table,
    );
    await qi.addIndex('two_factor_challenges', ['expires_at'], { name: 'two_factor_challenges_expiry' });
    await qi.addColumn('roles', 'require_two_factor', {
      type: DataTypes.BOOLEAN,
      allowNull: false,
      defaultValue: false,
    });
    await qi.addColumn('sessions', 'second_factor', { type: DataTypes.STRING(16), allowNull: true });
  },
  async down({ qi }) {
    await qi.dropTable('two_factor_challenges');
    await qi.dropTable('two_factor_recovery_codes');
    // DROP COLUMN in place, on both engines: Sequelize's removeColumn rebuilds a SQLite table
    // (copy, drop, rename), and rebuilding `users` or `roles` would cascade to their memberships.
    for (const column of USER_COLUMNS) await qi.sequelize.query(`ALTER TABLE users DROP COLUMN ${column}`);
    await qi.sequelize.query('ALTER TABLE roles DROP COLUMN require_two_factor');
    await qi.sequelize.query('ALTER TABLE sessions DROP COLUMN second_factor');
  },
};
