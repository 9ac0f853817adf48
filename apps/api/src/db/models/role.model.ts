import {
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  Model,
  type Sequelize,
  DataTypes,
} from 'sequelize';
import { roleNameKey } from '@app/contracts';
import type { Dialect } from '../dialect.js';
import { columnTypes } from './columns.js';

class Role extends Model<InferAttributes<Role>, InferCreationAttributes<Role>> {
  declare id: CreationOptional<number>;
  declare name: string;
  /** What makes two names one (`roleNameKey`), unique (migration 0028): set from `name` on every write. */
  declare name_key: CreationOptional<string>;
  declare description: CreationOptional<string | null>;
  declare guard_name: CreationOptional<string>;
  /** Optimistic-lock counter behind the role form's opaque `version` (migration 0015). */
  declare lock_version: CreationOptional<number>;
  /** Members must have a second factor to use a session (migration 0020). */
  declare require_two_factor: CreationOptional<boolean>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

class Permission extends Model<InferAttributes<Permission>, InferCreationAttributes<Permission>> {
  declare id: CreationOptional<number>;
  declare name: string;
  declare guard_name: CreationOptional<string>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
}

class RolePermission extends Model<InferAttributes<RolePermission>, InferCreationAttributes<RolePermission>> {
  declare role_id: number;
  declare permission_id: number;
}

class UserRole extends Model<InferAttributes<UserRole>, InferCreationAttributes<UserRole>> {
  declare user_id: number;
  declare role_id: number;
}

class UserPermission extends Model<InferAttributes<UserPermission>, InferCreationAttributes<UserPermission>> {
  declare user_id: number;
  declare permission_id: number;
}

export function initRoles(sequelize: Sequelize, dialect: Dialect) {
  const t = columnTypes(dialect);
  // One subclass per database, as for users.
  const named = {
    id: { type: t.id, autoIncrement: true, primaryKey: true },
    name: { type: DataTypes.STRING(100), allowNull: false },
    guard_name: { type: DataTypes.STRING(50), allowNull: false, defaultValue: 'web' },
    created_at: { type: t.date, allowNull: false },
    updated_at: { type: t.date, allowNull: false },
  };
  const stamps = { underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' } as const;
  const RoleBound = class extends Role {};
  RoleBound.init(
    {
      ...named,
      name_key: { type: DataTypes.STRING(100), allowNull: true },
      description: { type: DataTypes.STRING(500), allowNull: true },
      lock_version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      require_two_factor: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    },
    {
      sequelize,
      modelName: 'Role',
      tableName: 'roles',
      ...stamps,
      // A role written through the model (the seeder, tests' factories) keys its name as the role
      // writes do, so the unique index judges it too.
      hooks: {
        beforeValidate: (role) => {
          if (role.changed('name')) role.name_key = roleNameKey(role.name);
        },
        beforeBulkUpdate: (options: { attributes?: Partial<Role>; fields?: string[] }) => {
          const name = options.attributes?.name;
          if (typeof name !== 'string') return;
          options.attributes = { ...options.attributes, name_key: roleNameKey(name) };
          options.fields = [...(options.fields ?? []), 'name_key'];
        },
      },
    },
  );
  const PermissionBound = class extends Permission {};
  PermissionBound.init(named, { sequelize, modelName: 'Permission', tableName: 'permissions', ...stamps });
  const RolePermissionBound = class extends RolePermission {};
  RolePermissionBound.init(
    {
      role_id: { type: t.fk, primaryKey: true },
      permission_id: { type: t.fk, primaryKey: true },
    },
    { sequelize, modelName: 'RolePermission', tableName: 'role_permissions', timestamps: false },
  );
  const UserRoleBound = class extends UserRole {};
  UserRoleBound.init(
    {
      user_id: { type: t.fk, primaryKey: true },
      role_id: { type: t.fk, primaryKey: true },
    },
    { sequelize, modelName: 'UserRole', tableName: 'user_roles', timestamps: false },
  );
  const UserPermissionBound = class extends UserPermission {};
  UserPermissionBound.init(
    {
      user_id: { type: t.fk, primaryKey: true },
      permission_id: { type: t.fk, primaryKey: true },
    },
    { sequelize, modelName: 'UserPermission', tableName: 'user_permissions', timestamps: false },
  );
  return {
    Role: RoleBound,
    Permission: PermissionBound,
    RolePermission: RolePermissionBound,
    UserRole: UserRoleBound,
    UserPermission: UserPermissionBound,
  };
}
