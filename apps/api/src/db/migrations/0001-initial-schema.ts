import { DataTypes } from 'sequelize';
import { columnTypes } from './frozen-column-types.js';
import type { Migration } from './migration.js';

/**
 * The initial schema. Every users index exists for one list query of SPEC §5; docs/database.md
 * lists which query each serves. Trailing `id` columns make `ORDER BY x, id` index-ordered on
 * SQLite too (InnoDB appends the primary key to secondary indexes by itself).
 */
export const initialSchema: Migration = {
  name: '0001-initial-schema',
  async up({ qi, dialect }) {
    const t = columnTypes(dialect);
    const table = dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {};
    const id = { type: t.id, autoIncrement: true, primaryKey: true, allowNull: false };
    const fk = (model: string, onDelete = 'CASCADE') => ({
      type: t.fk,
      allowNull: false,
      references: { model, key: 'id' },
      onDelete,
      onUpdate: 'CASCADE',
    });
    const stamps = {
      created_at: { type: t.date, allowNull: false },
      updated_at: { type: t.date, allowNull: false },
    };

    await qi.createTable(
      'users',
      {
        id,
        name: { type: t.ciText(100), allowNull: false },
        email: { type: t.ciText(255), allowNull: false },
        password_hash: { type: DataTypes.STRING(255), allowNull: false },
        is_active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        lock_version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        ...stamps,
        deleted_at: { type: t.date, allowNull: true },
      },
      table,
    );
    await qi.addIndex('users', ['email'], { name: 'users_email_unique', unique: true });
    await qi.addIndex('users', ['deleted_at', 'id'], { name: 'users_deleted_id' });
    await qi.addIndex('users', ['deleted_at', 'name', 'id'], { name: 'users_deleted_name' });
    await qi.addIndex('users', ['deleted_at', 'email', 'id'], { name: 'users_deleted_email' });
    await qi.addIndex('users', ['deleted_at', 'is_active', 'id'], { name: 'users_deleted_active' });
    await qi.addIndex('users', ['deleted_at', 'created_at', 'id'], { name: 'users_deleted_created' });

    for (const name of ['roles', 'permissions']) {
      await qi.createTable(
        name,
        {
          id,
          name: { type: DataTypes.STRING(100), allowNull: false },
          guard_name: { type: DataTypes.STRING(50), allowNull: false, defaultValue: 'web' },
          ...stamps,
        },
        table,
      );
      await qi.addIndex(name, ['name', 'guard_name'], { name: `${name}_name_unique`, unique: true });
    }

    await qi.createTable(
      'role_permissions',
      {
        role_id: { ...fk('roles'), primaryKey: true },
        permission_id: { ...fk('permissions'), primaryKey: true },
      },
      table,
    );
    await qi.addIndex('role_permissions', ['permission_id', 'role_id'], { name: 'role_permissions_permission' });

    await qi.createTable(
      'user_roles',
      {
        user_id: { ...fk('users'), primaryKey: true },
        role_id: { ...fk('roles'), primaryKey: true },
      },
      table,
    );
    // Serves the role_id filter (EXISTS … WHERE role_id IN (…)) and "who holds the admin role".
    await qi.addIndex('user_roles', ['role_id', 'user_id'], { name: 'user_roles_role' });

    await qi.createTable(
      'user_permissions',
      {
        user_id: { ...fk('users'), primaryKey: true },
        permission_id: { ...fk('permissions'), primaryKey: true },
      },
      table,
    );
    await qi.addIndex('user_permissions', ['permission_id', 'user_id'], { name: 'user_permissions_permission' });

    await qi.createTable(
      'sessions',
      {
        id: { type: DataTypes.CHAR(64), primaryKey: true, allowNull: false },
        user_id: fk('users'),
        ip: { type: DataTypes.STRING(45), allowNull: true },
        user_agent: { type: DataTypes.STRING(255), allowNull: true },
        created_at: { type: t.date, allowNull: false },
        last_seen_at: { type: t.date, allowNull: false },
        expires_at: { type: t.date, allowNull: false },
      },
      table,
    );
    await qi.addIndex('sessions', ['user_id'], { name: 'sessions_user' });
    await qi.addIndex('sessions', ['expires_at'], { name: 'sessions_expires' });

    await qi.createTable(
      'api_tokens',
      {
        id,
        user_id: fk('users'),
        name: { type: DataTypes.STRING(100), allowNull: false },
        token_hash: { type: DataTypes.CHAR(64), allowNull: false },
        expires_at: { type: t.date, allowNull: true },
        last_used_at: { type: t.date, allowNull: true },
        created_at: { type: t.date, allowNull: false },
      },
      table,
    );
    await qi.addIndex('api_tokens', ['token_hash'], { name: 'api_tokens_hash_unique', unique: true });
    await qi.addIndex('api_tokens', ['user_id'], { name: 'api_tokens_user' });

    await qi.createTable(
      'audit_logs',
      {
        id,
        // No foreign key: the trail outlives the users it mentions (force delete keeps history).
        actor_id: { type: t.fk, allowNull: true },
        action: { type: DataTypes.STRING(64), allowNull: false },
        target_type: { type: DataTypes.STRING(32), allowNull: true },
        target_ids: { type: DataTypes.JSON, allowNull: false },
        changes: { type: DataTypes.JSON, allowNull: true },
        context: { type: DataTypes.JSON, allowNull: true },
        ip: { type: DataTypes.STRING(45), allowNull: true },
        request_id: { type: DataTypes.STRING(64), allowNull: true },
        created_at: { type: t.date, allowNull: false },
      },
      table,
    );
    await qi.addIndex('audit_logs', ['created_at'], { name: 'audit_logs_created' });
    await qi.addIndex('audit_logs', ['actor_id', 'created_at'], { name: 'audit_logs_actor' });
    await qi.addIndex('audit_logs', ['action', 'created_at'], { name: 'audit_logs_action' });
  },

  async down({ qi }) {
    for (const name of [
      'audit_logs',
      'api_tokens',
      'sessions',
      'user_permissions',
      'user_roles',
      'role_permissions',
      'permissions',
      'roles',
      'users',
    ]) {
      await qi.dropTable(name);
    }
  },
};
