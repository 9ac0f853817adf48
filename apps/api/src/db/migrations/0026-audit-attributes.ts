import { DataTypes } from 'sequelize';
import { columnTypes } from './frozen-column-types.js';
import type { Migration } from './migration.js';

/**
 * `audit_attributes (attribute_key, created_at, audit_id)`: one row per custom attribute an event
 * changed, written with the event in its transaction, so "who changed Department, and when" is a
 * range of this primary key, newest first, instead of a scan of every event's JSON changes. Keyed
 * by the attribute's key (stable, and kept after the attribute is removed: its history stays).
 * No backfill: events before this migration cannot hold attribute values (0023 came with it).
 */
export const auditAttributes: Migration = {
  name: '0026-audit-attributes',
  async up({ qi, dialect }) {
    const t = columnTypes(dialect);
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_bin', engine: 'InnoDB' } : {};
    await qi.createTable(
      'audit_attributes',
      {
        attribute_key: { type: DataTypes.STRING(64), allowNull: false, primaryKey: true },
        created_at: { type: t.date, allowNull: false, primaryKey: true },
        audit_id: { type: t.fk, allowNull: false, primaryKey: true },
      },
      table,
    );
    // Pruning deletes an event's rows by event.
    await qi.addIndex('audit_attributes', ['audit_id'], { name: 'audit_attributes_audit' });
  },
  async down({ qi }) {
    await qi.dropTable('audit_attributes');
  },
};
