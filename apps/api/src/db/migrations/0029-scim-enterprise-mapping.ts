import { DataTypes } from 'sequelize';
import { columnTypes } from './frozen-column-types.js';
import type { Migration } from './migration.js';

/**
 * `scim_enterprise_mappings (field, attribute_id)`: which custom attribute each field of SCIM's
 * enterprise extension fills (issue 39). An attribute serves one field at most (unique), and
 * removing the attribute removes its mapping with it (the foreign key's cascade), so a mapping
 * never names an attribute that is gone.
 */
export const scimEnterpriseMapping: Migration = {
  name: '0029-scim-enterprise-mapping',
  async up({ qi, dialect }) {
    const t = columnTypes(dialect);
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_bin', engine: 'InnoDB' } : {};
    await qi.createTable(
      'scim_enterprise_mappings',
      {
        field: { type: DataTypes.STRING(32), allowNull: false, primaryKey: true },
        attribute_id: {
          type: t.fk,
          allowNull: false,
          references: { model: 'attributes', key: 'id' },
          onDelete: 'CASCADE',
        },
      },
      table,
    );
    await qi.addIndex('scim_enterprise_mappings', ['attribute_id'], {
      name: 'scim_enterprise_mappings_attribute',
      unique: true,
    });
  },
  async down({ qi }) {
    await qi.dropTable('scim_enterprise_mappings');
  },
};
