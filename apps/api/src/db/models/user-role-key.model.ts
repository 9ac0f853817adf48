import { DataTypes, type InferAttributes, type InferCreationAttributes, Model, type Sequelize } from 'sequelize';
import type { Dialect } from '../dialect.js';
import { columnTypes } from './columns.js';

/**
 * A user's list keys under one role (migration 0034): written only by the database's triggers,
 * read by the role-filtered list (modules/users/users.role-keys.ts). (user_id, role_id) names a
 * row; on MariaDB the table's primary key is (role_id, created_at, user_id), with (user_id,
 * role_id) a unique index (migration 0038).
 */
class UserRoleKey extends Model<InferAttributes<UserRoleKey>, InferCreationAttributes<UserRoleKey>> {
  declare user_id: number;
  declare role_id: number;
  declare deleted_at: Date | null;
  declare is_active: boolean;
  declare created_at: Date;
  declare name: string;
}

export function initUserRoleKeys(sequelize: Sequelize, dialect: Dialect) {
  const t = columnTypes(dialect);
  const Bound = class extends UserRoleKey {};
  Bound.init(
    {
      user_id: { type: t.fk, primaryKey: true },
      role_id: { type: t.fk, primaryKey: true },
      deleted_at: { type: t.date, allowNull: true },
      is_active: { type: DataTypes.BOOLEAN, allowNull: false },
      created_at: { type: t.date, allowNull: false },
      name: { type: t.ciText(100), allowNull: false },
    },
    { sequelize, modelName: 'UserRoleKey', tableName: 'user_role_keys', timestamps: false },
  );
  return Bound;
}
