import { DataTypes } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * What SCIM needs beside the tables it reads (issue 39):
 *
 * - `roles.external_id`: the identity provider's id for the group a role is (Entra sends one on
 *   creation and reads it back), unique when set, NULL for roles made elsewhere.
 * - `audit_logs_via (via, created_at)`: "changes made over SCIM" (and by any door) is one range of
 *   this index, newest first, instead of a walk of every event filtering as it goes — SCIM's
 *   changes may be a handful among millions of events.
 *
 * A nullable column is a metadata-only change; both indexes are built online (InnoDB's default
 * for a secondary index: writes go on while it builds).
 */
export const scimIdentities: Migration = {
  name: '0030-scim-identities',
  async up({ qi }) {
    await qi.addColumn('roles', 'external_id', { type: DataTypes.STRING(255), allowNull: true });
    await qi.addIndex('roles', ['external_id'], { name: 'roles_external_id', unique: true });
    await qi.addIndex('audit_logs', ['via', 'created_at'], { name: 'audit_logs_via' });
  },
  async down({ qi }) {
    await qi.removeIndex('audit_logs', 'audit_logs_via');
    await qi.removeIndex('roles', 'roles_external_id');
    await qi.sequelize.query('ALTER TABLE roles DROP COLUMN external_id');
  },
};
