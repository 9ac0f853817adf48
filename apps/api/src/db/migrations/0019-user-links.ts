import { DataTypes } from 'sequelize';
import type { Dialect } from '../dialect.js';
import type { Migration } from './migration.js';

/** This migration's own column types (frozen: see frozen-column-types.ts for why a copy). */
function columnTypes(dialect: Dialect) {
  const mysql = dialect === 'mysql';
  return {
    id: mysql ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER,
    date: mysql ? DataTypes.DATE(3) : DataTypes.DATE,
  };
}

/**
 * The links mail carries into the product: invitations and password resets.
 *
 * - `user_links`: one row per link sent. Only the SHA-256 of its token is kept (the token is 32
 *   random bytes: no dictionary to hash against, so no salt or slow hash is needed); a link
 *   works once (`used_at`), until `expires_at`, and not after `voided_at` (a newer link of its
 *   kind, a password change, a deactivation). Erasing a user erases its links.
 * - `users.invitation_sent_at` / `invitation_expires_at` / `invitation_accepted_at`: the user's
 *   latest invitation as the list filters it (`filters[invitation]=pending`) and the user page
 *   shows it, without a join: pending is "not accepted, expires later than now".
 * - `users.last_sign_in_at`: when the account last signed in (any way). An account that has
 *   signed in is not invited again (`ALREADY_SIGNED_IN`). Filled from the audit trail's
 *   sign-ins (`auth.login`) for the accounts that have some.
 */
export const userLinks: Migration = {
  name: '0019-user-links',
  async up({ qi, dialect }) {
    const t = columnTypes(dialect);
    const mysql = dialect === 'mysql';
    const table = mysql ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {};
    await qi.createTable(
      'user_links',
      {
        id: { type: t.id, autoIncrement: true, primaryKey: true },
        user_id: {
          type: t.id,
          allowNull: false,
          references: { model: 'users', key: 'id' },
          onDelete: 'CASCADE',
        },
        purpose: { type: DataTypes.STRING(16), allowNull: false },
        token_hash: {
          type: mysql ? 'CHAR(64) CHARACTER SET ascii COLLATE ascii_bin' : DataTypes.STRING(64),
          allowNull: false,
        },
        created_by: { type: t.id, allowNull: true },
        created_at: { type: t.date, allowNull: false },
        expires_at: { type: t.date, allowNull: false },
        used_at: { type: t.date, allowNull: true },
        voided_at: { type: t.date, allowNull: true },
      },
      table,
    );
    await qi.addIndex('user_links', ['token_hash'], { name: 'user_links_token', unique: true });
    await qi.addIndex('user_links', ['user_id', 'purpose'], { name: 'user_links_user' });
    for (const column of ['invitation_sent_at', 'invitation_expires_at', 'invitation_accepted_at', 'last_sign_in_at']) {
      await qi.addColumn('users', column, { type: t.date, allowNull: true });
    }
    // The pending invitations of the live users, in the list's default order.
    await qi.addIndex('users', ['deleted_at', 'invitation_expires_at', 'id'], { name: 'users_deleted_invitation' });
    // The sign-ins the audit trail holds (a pruned trail holds fewer: those accounts may be invited).
    await qi.sequelize.query(
      `UPDATE users SET last_sign_in_at = (
         SELECT MAX(a.created_at) FROM audit_logs a WHERE a.actor_id = users.id AND a.action = 'auth.login'
       ) WHERE id IN (SELECT actor_id FROM audit_logs WHERE action = 'auth.login' AND actor_id IS NOT NULL)`,
    );
  },
  async down({ qi }) {
    await qi.dropTable('user_links');
    await qi.removeIndex('users', 'users_deleted_invitation');
    // DROP COLUMN in place, on both engines: Sequelize's removeColumn rebuilds a SQLite table
    // (copy, drop, rename), and dropping `users` would cascade to every membership and session.
    for (const column of ['invitation_sent_at', 'invitation_expires_at', 'invitation_accepted_at', 'last_sign_in_at']) {
      await qi.sequelize.query(`ALTER TABLE users DROP COLUMN ${column}`);
    }
  },
};
