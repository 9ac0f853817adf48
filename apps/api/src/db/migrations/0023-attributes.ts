import { DataTypes, type QueryInterface, QueryTypes } from 'sequelize';
import type { Dialect } from '../dialect.js';
import type { Migration } from './migration.js';

/** This migration's own column types (frozen: see frozen-column-types.ts for why a copy). */
function columnTypes(dialect: Dialect) {
  const mysql = dialect === 'mysql';
  return {
    id: mysql ? DataTypes.INTEGER.UNSIGNED : DataTypes.INTEGER,
    date: mysql ? DataTypes.DATE(3) : DataTypes.DATE,
    // Compared and sorted without regard to letter case on both engines (the table's collation
    // on MariaDB, NOCASE on SQLite): "sales" finds "Sales", as the list's other filters do.
    text: mysql ? DataTypes.STRING(255) : 'VARCHAR(255) COLLATE NOCASE',
  };
}

/**
 * Custom profile attributes (issue 38; docs/decisions.md, "Custom attributes: typed values in a
 * table of their own").
 *
 * - `attributes`: the declared schema, one row per attribute (`key` stable and unique).
 * - `user_attribute_values`: one row per user and attribute holding a value, typed: text (string,
 *   e-mail, URL, enumeration, and dates as YYYY-MM-DD, which sort as text) in `text_value`;
 *   numbers, yes/no (1/0) and user references (an id) in `number_value`. Keyed by (attribute, user):
 *   an attribute's values in user order are one range (an export's page, a schema change's walk,
 *   a removal in batches); indexed by user (a user's page; the cascade when a user is erased) and
 *   by (attribute, value) for a filter, a range or a sort on one attribute, the user id riding
 *   along in each index entry. `unique_value`
 *   repeats the value only for an attribute declared unique, so one unique index on (attribute,
 *   unique_value) keeps them unique under any concurrency, and NULLs (every other attribute) never
 *   collide. Declaring an attribute writes one row: no DDL, no lock on `users`.
 * - the `attributes.manage` and `attributes.sensitive.view` permissions, granted to `admin`.
 */
export const attributes: Migration = {
  name: '0023-attributes',
  async up({ qi, dialect }) {
    const t = columnTypes(dialect);
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {};
    await qi.createTable(
      'attributes',
      {
        id: { type: t.id, autoIncrement: true, primaryKey: true },
        key: { type: DataTypes.STRING(64), allowNull: false },
        label: { type: DataTypes.STRING(100), allowNull: false },
        type: { type: DataTypes.STRING(16), allowNull: false },
        enum_values: { type: DataTypes.TEXT, allowNull: true },
        required: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        is_unique: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        validators: { type: DataTypes.TEXT, allowNull: false },
        sensitivity: { type: DataTypes.STRING(16), allowNull: false },
        description: { type: DataTypes.STRING(500), allowNull: true },
        created_at: { type: t.date, allowNull: false },
        updated_at: { type: t.date, allowNull: false },
      },
      table,
    );
    await qi.addIndex('attributes', ['key'], { name: 'attributes_key', unique: true });
    await qi.createTable(
      'user_attribute_values',
      {
        attribute_id: { type: t.id, allowNull: false, primaryKey: true },
        user_id: {
          type: t.id,
          allowNull: false,
          primaryKey: true,
          references: { model: 'users', key: 'id' },
          onDelete: 'CASCADE',
        },
        text_value: { type: t.text, allowNull: true },
        number_value: { type: DataTypes.DOUBLE, allowNull: true },
        unique_value: { type: t.text, allowNull: true },
      },
      table,
    );
    await qi.addIndex('user_attribute_values', ['user_id'], { name: 'user_attribute_values_user' });
    await qi.addIndex('user_attribute_values', ['attribute_id', 'text_value'], { name: 'user_attribute_values_text' });
    await qi.addIndex('user_attribute_values', ['attribute_id', 'number_value'], {
      name: 'user_attribute_values_number',
    });
    await qi.addIndex('user_attribute_values', ['attribute_id', 'unique_value'], {
      name: 'user_attribute_values_unique',
      unique: true,
    });
    await grant(qi, 'attributes.manage');
    await grant(qi, 'attributes.sensitive.view');
  },
  async down({ qi }) {
    await qi.dropTable('user_attribute_values');
    await qi.dropTable('attributes');
    await qi.sequelize.query(
      `DELETE FROM role_permissions WHERE permission_id IN
         (SELECT id FROM permissions WHERE name IN ('attributes.manage', 'attributes.sensitive.view'))`,
    );
    await qi.sequelize.query(
      `DELETE FROM permissions WHERE name IN ('attributes.manage', 'attributes.sensitive.view')`,
    );
  },
};

/** Adds the permission where it is missing and grants it to the seeded `admin` role (as 0021 did). */
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
