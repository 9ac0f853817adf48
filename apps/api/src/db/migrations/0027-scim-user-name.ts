import type { Migration } from './migration.js';

/**
 * SCIM's `userName` (issue 39; docs/decisions.md, "SCIM: userName beside the e-mail").
 *
 * - `users.user_name`: the userName an identity provider gave when it differs from the e-mail
 *   (Entra's UPN beside the mail); NULL otherwise, so nothing is stored twice.
 * - `users.user_name_key`: a virtual column, `COALESCE(user_name, email)`: what SCIM answers as
 *   userName, compared without regard to case (the table's collation; NOCASE on SQLite), and
 *   unique, so two accounts can never answer to one userName however they race — the unique
 *   index decides, as `users_email_unique` does for e-mails. A filter `userName eq "…"` is one
 *   probe of it.
 *
 * Both columns are metadata-only changes (MariaDB adds a nullable column and a virtual one
 * instantly); the index is built online (InnoDB's default for a secondary index: writes go on
 * while it builds, ~4 s at a million users).
 */
export const scimUserName: Migration = {
  name: '0027-scim-user-name',
  async up({ qi, dialect }) {
    const q = (sql: string) => qi.sequelize.query(sql);
    if (dialect === 'mysql') {
      await q(
        `ALTER TABLE users ADD COLUMN user_name VARCHAR(255) NULL,
         ADD COLUMN user_name_key VARCHAR(255) AS (COALESCE(user_name, email)) VIRTUAL`,
      );
      await q('CREATE UNIQUE INDEX users_user_name_key ON users (user_name_key)');
    } else {
      await q('ALTER TABLE users ADD COLUMN user_name VARCHAR(255) COLLATE NOCASE NULL');
      await q(
        `ALTER TABLE users ADD COLUMN user_name_key VARCHAR(255) COLLATE NOCASE
         GENERATED ALWAYS AS (COALESCE(user_name, email)) VIRTUAL`,
      );
      await q('CREATE UNIQUE INDEX users_user_name_key ON users (user_name_key)');
    }
  },
  async down({ qi }) {
    await qi.removeIndex('users', 'users_user_name_key');
    await qi.sequelize.query('ALTER TABLE users DROP COLUMN user_name_key');
    await qi.sequelize.query('ALTER TABLE users DROP COLUMN user_name');
  },
};
