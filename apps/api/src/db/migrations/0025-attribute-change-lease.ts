import type { Migration } from './migration.js';
import { columnTypes } from './frozen-column-types.js';

/**
 * `attributes.changing_until`: while a schema change walks an attribute's stored values (a new
 * type, new validators, becoming unique), writes of that attribute's values are refused until
 * this instant, which the walk renews batch by batch; a walk that dies lets its lease lapse. The
 * table holds at most 100 rows: adding a column is instant.
 */
export const attributeChangeLease: Migration = {
  name: '0025-attribute-change-lease',
  async up({ qi, dialect }) {
    await qi.addColumn('attributes', 'changing_until', { type: columnTypes(dialect).date, allowNull: true });
  },
  async down({ qi }) {
    await qi.removeColumn('attributes', 'changing_until');
  },
};
