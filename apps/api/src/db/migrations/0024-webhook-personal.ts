import { DataTypes } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * `webhooks.include_personal`: whether an endpoint receives the values of `personal` custom
 * attributes in its events (SPEC §14). Off for every endpoint: personal data leaves the product
 * only where an administrator said so. The table holds at most 50 rows: adding a column is instant.
 */
export const webhookPersonal: Migration = {
  name: '0024-webhook-personal',
  async up({ qi }) {
    await qi.addColumn('webhooks', 'include_personal', {
      type: DataTypes.BOOLEAN,
      allowNull: false,
      defaultValue: false,
    });
  },
  async down({ qi }) {
    await qi.removeColumn('webhooks', 'include_personal');
  },
};
